import fastifyCookie from '@fastify/cookie';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { IncomingMessage } from 'node:http';
import type { Logger as Pino } from 'pino';
import { canonicalUrl } from './common/http/base-path-aliases';
import { DEFAULT_BODY_LIMIT, registerBodyParsing } from './common/http/body-parsing';
import { httpEdgeOptions, registerAddressShare, registerShutdownRefusal } from './common/http/http-edge';
import { registerRequestLogging, requestIdOf } from './common/http/request-logging';
import { registerHttpMetrics, registerMetricsRoute } from './common/metrics/http-metrics';
import { Metrics } from './common/metrics/metrics';
import { registerRequestLocale } from './common/i18n/request-locale';
import { PinoLoggerService, ROOT_LOGGER } from './common/logging/logging.module';
import { setupSwagger } from './common/swagger/swagger';
import { documentValidationLimits } from './common/validation/documented-limits';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { registerConsole } from './modules/console/console-assets';
import { CheckInTally } from './modules/overview/check-in-tally';
import { QueueDashboard } from './modules/webhooks/queue-dashboard';

/**
 * The HTTP server: Fastify, with the edge's limits and refusals (`httpEdgeOptions`: timeouts, connection cap,
 * X-Forwarded-For trusted only as TRUST_PROXY says); the known clients' base paths (`/service`, `/api`)
 * rewritten to the canonical check-in and app routes before routing.
 */
export function createHttpAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    ...httpEdgeOptions(config),
    bodyLimit: DEFAULT_BODY_LIMIT,
    genReqId: requestIdOf,
    rewriteUrl: (request: IncomingMessage) => canonicalUrl(request.url ?? '/'),
  });
}

/** Everything main.ts does to the app before it starts, shared with the e2e tests so they run the same pipeline. */
export function configureApp(app: NestFastifyApplication): NestFastifyApplication {
  const logger = app.get<Pino>(ROOT_LOGGER);
  app.useLogger(app.get(PinoLoggerService));
  const fastify = app.getHttpAdapter().getInstance();
  // First, so that every route (the queue dashboard's too) reads the console's session cookie.
  void fastify.register(fastifyCookie);
  registerRequestLogging(fastify, logger);
  const config = app.get<AppConfig>(APP_CONFIG);
  const metrics = app.get(Metrics);
  registerHttpMetrics(fastify, metrics);
  app.get(CheckInTally).register(fastify);
  registerRequestLocale(fastify, config.defaultLocale);
  registerShutdownRefusal(fastify);
  registerAddressShare(fastify, config);
  registerBodyParsing(fastify);
  app.get(QueueDashboard, { strict: false }).register(fastify);
  registerConsole(fastify);
  registerMetricsRoute(fastify, metrics, config.metricsToken);
  documentValidationLimits();
  setupSwagger(app, config.publicBaseUrl);
  app.enableShutdownHooks();
  return app;
}
