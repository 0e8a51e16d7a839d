import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { ConfigError, loadConfig } from './config/app-config';
import { checkRedis } from './database/check-redis';
import { DependencyUnavailableError, prepareDatabase } from './database/prepare-database';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  await prepareDatabase(config);
  await checkRedis(config);
  const app = await NestFactory.create(AppModule, { bodyParser: false, bufferLogs: true });
  configureApp(app);
  await app.listen(config.port);
  console.log(`Gym integration service listening on http://127.0.0.1:${config.port} (docs at /docs)`);
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DependencyUnavailableError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
