import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Logger as Pino } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's `x-request-id` when it is a sane token, a new UUID otherwise. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Echoes the request id and logs one line per request when it ends: debug for success, info for a refusal,
 * error for a failure, so a production log at info holds every refusal but not the turnstiles' routine.
 * Headers and bodies are never logged; the URL is the one the client sent, which the logger's serializer masks
 * (capability tokens, credential-named query values, CPFs: see log-masking.ts).
 */
export function registerRequestLogging(fastify: FastifyInstance, logger: Pino): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          requestId: request.id,
          req: { id: request.id, method: request.method, url: request.originalUrl },
          res: { statusCode: status },
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
    }
    done();
  });
}
