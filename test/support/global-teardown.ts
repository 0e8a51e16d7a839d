import Redis from 'ioredis';
import { createConnection } from 'mysql2/promise';

/** Drops the databases this run's workers created. */
async function dropDatabases(runId: string): Promise<void> {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/gym_integration');
  const connection = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
  try {
    const [rows] = await connection.query('SHOW DATABASES LIKE ?', [`gym\\_test\\_${runId}\\_%`]);
    for (const row of rows as Record<string, string>[]) {
      await connection.query(`DROP DATABASE IF EXISTS \`${Object.values(row)[0]}\``);
    }
  } finally {
    await connection.end();
  }
}

/** Deletes the Bull keys of this run's queue prefixes (`gymtest_<run>_w<n>_<file>:*`), nothing else of the shared Redis. */
async function deleteQueueKeys(runId: string): Promise<void> {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `gymtest_${runId}_*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Leaves nothing of the run behind in MariaDB or Redis. */
export default async function globalTeardown(): Promise<void> {
  const runId = process.env.GYM_TEST_RUN_ID;
  if (!runId) return;
  await Promise.all([dropDatabases(runId), deleteQueueKeys(runId)]);
}
