import { NestFactory } from '@nestjs/core';
import { createServer } from 'node:net';
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
  // Before anything else, so that a busy port is one line naming PORT rather than a framework's error log.
  await assertPortFree(config.port, 'PORT');
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
  try {
    await app.listen(config.port, config.host);
  } catch (error) {
    throw portInUse(error, 'PORT', config.port);
  }
  return app;
}

/** Fails with `portInUse`'s sentence when another program listens on the port. */
export async function assertPortFree(port: number, variable: string, host = '0.0.0.0'): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, host, () => resolve());
    });
  } catch (error) {
    throw portInUse(error, variable, port);
  }
  await new Promise((resolve) => probe.close(resolve));
}

/** A port another program holds, told as the variable to change; any other listen error as it is. */
export function portInUse(error: unknown, variable: string, port: number): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') return error;
  return new ConfigError(
    `port ${port} is already in use by another program: set ${variable} to a free port (e.g. ${variable}=${port + 10}).`,
  );
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
