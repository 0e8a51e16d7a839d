import { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { jsonBodyParsers } from './common/http/body-parsing';
import { setupSwagger } from './common/swagger/swagger';
import { QueueDashboard } from './modules/webhooks/queue-dashboard';

/** Everything main.ts does to the app, shared with the e2e tests so they run the same pipeline. */
export function configureApp(app: INestApplication): INestApplication {
  const express = app as NestExpressApplication;
  express.useLogger(app.get(Logger));
  express.set('trust proxy', 'loopback');
  express.disable('x-powered-by');
  const dashboard = app.get(QueueDashboard, { strict: false });
  express.use(dashboard.basePath, dashboard.basicAuth, dashboard.router);
  express.use(...jsonBodyParsers());
  setupSwagger(app);
  app.enableShutdownHooks();
  return app;
}
