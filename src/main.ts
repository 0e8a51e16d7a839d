import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { checkRedis } from './database/check-redis';
import { DependencyUnavailableError, prepareDatabase } from './database/prepare-database';

/**
 * Prepares MySQL, then starts the HTTP service. Redis is not needed to start: without it check-ins are served
 * and their webhook deliveries wait in the outbox until the queue's connection, retried all along, comes back.
 */
export async function bootstrap(config: AppConfig = loadConfig()): Promise<NestFastifyApplication> {
  await prepareDatabase(config);
  const redisProblem = await checkRedis(config).then(
    () => undefined,
    (error: Error) => error.message,
  );
  if (redisProblem) {
    console.warn(
      `Starting without Redis: ${redisProblem} Check-ins are served; webhook deliveries wait in the outbox ` +
        'and are sent once Redis answers (the connection is retried).',
    );
  }
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createHttpAdapter(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app);
  await app.listen(config.port, '0.0.0.0');
  return app;
}

export function exitOnStartFailure(error: unknown): never {
  if (error instanceof ConfigError || error instanceof DependencyUnavailableError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
}

if (require.main === module) {
  bootstrap()
    .then(() => console.log('Gym integration service listening; Swagger UI at /docs'))
    .catch(exitOnStartFailure);
}
