import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildErrorEnvelope, withRequestId } from '../errors/error-envelope';
import { ErrorLabel } from '../errors/error-label';
import { routeConfigOf } from '../http/route-config';
import { message, translate } from '../i18n/messages';
import { Metrics } from './metrics';

export const METRICS_PATH = '/metrics';
const ERROR_LABEL = Symbol('errorLabel');
const UNMATCHED_ROUTE = 'unmatched';

type LabelledRequest = FastifyRequest & { [ERROR_LABEL]?: ErrorLabel };

/** The exception filter notes the label it answered with, for the check-in outcome counter. */
export function noteErrorLabel(request: FastifyRequest, label: ErrorLabel): void {
  (request as LabelledRequest)[ERROR_LABEL] = label;
}

/** The label the exception filter answered the request with, if it answered with an error. */
export function errorLabelOf(request: FastifyRequest): ErrorLabel | undefined {
  return (request as LabelledRequest)[ERROR_LABEL];
}

/**
 * One histogram sample per request, by route pattern (never the raw URL, which holds CPFs and tokens), and one
 * check-in outcome per answer of a route that declares its `checkInOperation`. The cost is a few label
 * look-ups after the answer is sent.
 */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    const operation = routeConfigOf(request).checkInOperation;
    if (operation) {
      const outcome = reply.statusCode < 400 ? 'success' : (request as LabelledRequest)[ERROR_LABEL];
      metrics.countCheckIn(operation, outcome ?? 'internal_error');
    }
    done();
  });
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` for Prometheus, behind `Authorization: Bearer <METRICS_TOKEN>`; without a token configured
 * the route does not exist (404, like any unknown route).
 */
export function registerMetricsRoute(fastify: FastifyInstance, metrics: Metrics, token: string | null): void {
  if (!token) return;
  fastify.get(METRICS_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const given = /^Bearer (.+)$/i.exec(header)?.[1];
    if (!given || !sameToken(given, token)) {
      const detail = translate(request.locale ?? 'en', message('request.authenticationRequired'));
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .send(withRequestId(buildErrorEnvelope(401, 'invalid_token', detail), request.id));
    }
    return reply.header('content-type', metrics.contentType).send(await metrics.scrape());
  });
}
