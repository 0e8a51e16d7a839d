import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { DependencyUnavailableError } from './prepare-database';

/** Fails at once, naming the URL, when Redis cannot be reached at boot. */
export async function checkRedis(config: Pick<AppConfig, 'redisUrl'>): Promise<void> {
  const client = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const url = new URL(config.redisUrl);
    throw new DependencyUnavailableError(
      `Cannot reach Redis at ${url.protocol}//${url.host} (${(error as Error).message}). ` +
        'Start Redis (e.g. `redis-server --daemonize yes --port 6379`, ' +
        'or `docker compose -f docker/compose.yml up -d redis`) or set REDIS_URL.',
    );
  } finally {
    client.disconnect();
  }
}
