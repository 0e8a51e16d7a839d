import { createConnection } from 'mysql2/promise';

/** Drops the databases this run's workers created. */
export default async function globalTeardown(): Promise<void> {
  const runId = process.env.GYM_TEST_RUN_ID;
  if (!runId) return;
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
