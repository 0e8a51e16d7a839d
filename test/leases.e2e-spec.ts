import { Lease, Leases, withLease } from '../src/database/leases';
import { prepareDatabase } from '../src/database/prepare-database';
import { createTestApp, TestApp } from './support/test-app';
import { eventually } from './support/webhook-receiver';

/**
 * Leases (what replaced GET_LOCK for the migrations, the webhook poller and the bulk import): one holder at a
 * time, the next one once it is given up or its time is over. The same on a Galera cluster:
 * test/galera.e2e-spec.ts starts instances together through three nodes.
 */
describe('leases (e2e)', () => {
  let t: TestApp;
  let leases: Leases;

  beforeAll(async () => {
    t = await createTestApp();
    leases = t.app.get(Leases);
  });
  beforeEach(() => t.dataSource.query('DELETE FROM leases'));
  afterAll(() => t.close());

  it('has one holder at a time, and goes to the next once given up', async () => {
    const [a, b] = [leases.lease('probe', 30_000), leases.lease('probe', 30_000)];
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    // The holder renews its own.
    expect(await a.acquire()).toBe(true);
    expect({ a: a.held, b: b.held }).toEqual({ a: true, b: false });
    await a.release();
    expect(await b.acquire()).toBe(true);
    expect(await a.acquire()).toBe(false);
  });

  it('goes to another once its holder stops renewing and its time is over', async () => {
    const dead = new Lease(t.dataSource, 'probe', 2000);
    const next = leases.lease('probe', 30_000);
    expect(await dead.acquire()).toBe(true);
    expect(await next.acquire()).toBe(false);
    await eventually(() => next.acquire(), 10_000, 'the expired lease to be taken');
    expect(await dead.acquire()).toBe(false);
  });

  it('runs works that want the same lease one after another', async () => {
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        withLease(t.dataSource, 'probe', { ttlMs: 5000, waitMs: 30_000, pollMs: 20 }, async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 50));
          order.push(i);
          running--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order.sort()).toEqual([0, 1, 2, 3, 4]);
    const [{ n }] = await t.dataSource.query("SELECT COUNT(*) AS n FROM leases WHERE name = 'probe'");
    expect(Number(n)).toBe(0);
  });

  it('lets processes that start together on a fresh database run the migrations once', async () => {
    const url = new URL(t.config.databaseUrl);
    url.pathname = `${url.pathname}_fresh`;
    await Promise.all(Array.from({ length: 3 }, () => prepareDatabase({ databaseUrl: url.toString() })));
    const database = url.pathname.slice(1);
    const runs: { name: string; n: string }[] = await t.dataSource.query(
      `SELECT name, COUNT(*) AS n FROM \`${database}\`.migrations GROUP BY name`,
    );
    expect(runs.length).toBe(t.dataSource.migrations.length);
    expect(runs.filter((run) => Number(run.n) !== 1)).toEqual([]);
    await t.dataSource.query(`DROP DATABASE \`${database}\``);
  });
});
