import type { PoolConnection } from 'mysql2';
import { Transactions } from '../src/database/transactions';
import { executePrepared } from '../src/database/prepared-statement';
import { createTestApp, TestApp } from './support/test-app';

describe('database connections (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DATABASE_POOL_SIZE: '3' });
  });
  afterAll(() => t.close());

  it('every pooled connection, the first one included, runs its session in UTC', async () => {
    // All three connections of the pool at once, so the one opened at start-up is among them.
    const runners = Array.from({ length: 3 }, () => t.dataSource.createQueryRunner());
    try {
      const sessions: { id: string; tz: string; offset: string }[] = await Promise.all(
        runners.map(async (runner) => {
          const [row] = await runner.query(
            'SELECT CONNECTION_ID() AS id, @@session.time_zone AS tz, TIMEDIFF(NOW(), UTC_TIMESTAMP()) AS utcOffset',
          );
          return { id: String(row.id), tz: row.tz, offset: row.utcOffset };
        }),
      );
      expect(new Set(sessions.map((session) => session.id)).size).toBe(3);
      for (const session of sessions) expect(session).toMatchObject({ tz: '+00:00', offset: '00:00:00' });
    } finally {
      await Promise.all(runners.map((runner) => runner.release()));
    }
  });

  it('connections keep a bounded cache of prepared statements, and texts past it still run', async () => {
    // mysql2 sizes a connection's statement cache up front: its default of 16,000 cost 0.5 MB per connection.
    const runner = t.dataSource.createQueryRunner();
    try {
      const connection = (await runner.connect()) as PoolConnection;
      expect(connection.config.maxPreparedStatements).toBe(128);
      const manager = runner.manager;
      // 200 different texts on one connection: the oldest are evicted (closed on the server) as new ones come.
      for (let n = 0; n < 200; n++) {
        const [row] = await executePrepared<{ v: string }[]>(manager, `SELECT ? + ${n} AS v`, [1]);
        expect(Number(row.v)).toBe(n + 1);
      }
      // And the first texts again: prepared anew, same answers.
      for (let n = 0; n < 5; n++) {
        const [row] = await executePrepared<{ v: string }[]>(manager, `SELECT ? + ${n} AS v`, [2]);
        expect(Number(row.v)).toBe(n + 2);
      }
    } finally {
      await runner.release();
    }
    await t.app.get(Transactions).batch((tx) => tx.query('SELECT 1'));
    const batchPool = t.app.get(Transactions).openBatchPool;
    const batchConnection = await new Promise<PoolConnection>((resolve, reject) =>
      batchPool?.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
    );
    try {
      expect(batchConnection.config.maxPreparedStatements).toBe(128);
    } finally {
      batchConnection.release();
    }
  });
});
