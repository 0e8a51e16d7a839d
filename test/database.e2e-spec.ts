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
});
