import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../src/database/data-source';
import { DeliveriesRepository } from '../src/modules/webhooks/delivery/deliveries.repository';
import { runJobId } from '../src/modules/webhooks/delivery/delivery-policy';
import { DeliveryHealthRepository } from '../src/modules/webhooks/delivery-health.repository';
import { WebhooksRepository } from '../src/modules/webhooks/webhooks.repository';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

/**
 * The schedule's reads over `webhook_deliveries`: due endpoints, a run's next batch and the outbox backlog. They
 * go through the endpoint index alone, so what they read grows with endpoints and due rows, never with the
 * delivered history that most rows are; and the endpoints' runs, in `webhook_endpoint_states`.
 */
describe('webhook schedule queries (e2e)', () => {
  let t: TestApp;
  // One connection of its own: its session's Handler_read counters are the queries' reads, nobody else's.
  let single: DataSource;
  let deliveries: DeliveriesRepository;
  let webhooks: WebhooksRepository;
  // A day ahead: the app's own poller, on real time, leaves these rows alone.
  const base = new Date(Date.now() + 86_400_000);
  const at = (seconds: number) => new Date(base.getTime() + seconds * 1000);
  const [a, b, deleted, historyOnly, inFlight, later] = Array.from({ length: 6 }, () => randomUUID());

  beforeAll(async () => {
    t = await createTestApp();
    single = new DataSource(
      buildDataSourceOptions({ databaseUrl: t.config.databaseUrl, databasePoolSize: 1 }),
    );
    await single.initialize();
    deliveries = new DeliveriesRepository(single);
    webhooks = new WebhooksRepository(single);
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(async () => {
    await single.destroy();
    await t.close();
  });

  let sequence = 0;
  async function delivery(
    subscriptionId: string,
    row: { status: string; nextAttemptAt?: Date | null },
  ): Promise<void> {
    sequence++;
    await t.dataSource.query(
      `INSERT INTO webhook_deliveries
         (id, event_id, event_type, payload, subscription_id, place_id, url, status, attempts, next_attempt_at,
          created_at)
       VALUES (?, ?, 'CHECK_IN_CREATED', '{}', ?, ?, 'https://hooks.example.com/in', ?, 0, ?, ?)`,
      [
        `dlv_${sequence}`,
        `evt_${sequence}`,
        subscriptionId,
        randomUUID(),
        row.status,
        row.nextAttemptAt ?? null,
        at(-3600),
      ],
    );
  }

  /** Delivered rows, as most of the table is: `count` of them per endpoint. */
  async function history(subscriptionIds: string[], count: number): Promise<void> {
    for (const [index, subscriptionId] of subscriptionIds.entries())
      await t.dataSource.query(
        `INSERT INTO webhook_deliveries
           (id, event_id, event_type, payload, subscription_id, place_id, url, status, attempts, delivered_at,
            created_at)
         SELECT CONCAT('dlv_h', ?, '_', seq), CONCAT('evt_h', ?, '_', seq), 'CHECK_IN_CREATED', '{}', ?, ?,
                'https://hooks.example.com/in',
                'delivered', 1, ? - INTERVAL seq SECOND, ? - INTERVAL seq SECOND
         FROM seq_1_to_${count}`,
        [index, index, subscriptionId, randomUUID(), base, base],
      );
  }

  /**
   * A run's id as the poller names it (runJobId), started at `base`: the app's own lost-run check, on real time,
   * takes it for a run that has just started and leaves it alone (an id it cannot read a start time from, it
   * would free at its next round, every 2 s).
   */
  const runId = (subscriptionId: string) => runJobId(subscriptionId, base);

  /** A run holds the endpoint until `until`. */
  async function run(subscriptionId: string, runId: string, until: Date): Promise<void> {
    await t.dataSource.query(
      'INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, run_id, run_until) VALUES (?, 0, 0, ?, ?)',
      [subscriptionId, runId, until],
    );
  }

  /** The schedule at `base`: what is due, waiting, in flight and over, over six endpoints. */
  async function schedule(): Promise<void> {
    sequence = 0;
    await delivery(a, { status: 'queued', nextAttemptAt: at(-180) });
    await delivery(a, { status: 'pending', nextAttemptAt: at(0) });
    await delivery(b, { status: 'pending', nextAttemptAt: at(-300) });
    // The subscription is gone, its delivery is not: the runner fails it, so it must be found.
    await delivery(deleted, { status: 'pending', nextAttemptAt: at(-60) });
    await delivery(historyOnly, { status: 'failed' });
    // A run sends these two: their endpoint is not listed until its hold ends.
    await delivery(inFlight, { status: 'pending', nextAttemptAt: at(-600) });
    await delivery(inFlight, { status: 'pending', nextAttemptAt: at(-600) });
    await run(inFlight, runId(inFlight), at(10));
    await delivery(a, { status: 'queued', nextAttemptAt: at(-900) });
    await delivery(b, { status: 'pending', nextAttemptAt: at(-30) });
    await delivery(b, { status: 'pending', nextAttemptAt: at(-5) });
    await delivery(later, { status: 'queued', nextAttemptAt: at(60) });
    // A run whose hold is over: its endpoint is free.
    await run(later, runId(later), at(-1));
  }

  it('finds the endpoints with a due attempt and no run, the longest-waiting first, up to the limit', async () => {
    await schedule();
    await expect(deliveries.dueEndpoints(single, base, 10)).resolves.toEqual([a, b, deleted]);
    await expect(deliveries.dueEndpoints(single, base, 2)).resolves.toEqual([a, b]);
    await expect(deliveries.dueEndpoints(single, at(-3600), 10)).resolves.toEqual([]);
    // Once the run's hold is over, its endpoint is listed again, the longest-waiting.
    await expect(deliveries.dueEndpoints(single, at(10), 10)).resolves.toEqual([a, inFlight, b, deleted]);
  });

  it('leaves out the endpoints whose breaker is open, so that they cannot fill a round', async () => {
    await schedule();
    const [open, halfOpen] = [randomUUID(), randomUUID()];
    // The oldest due attempts of all, behind breakers: one open past `base`, one whose time is over.
    await delivery(open, { status: 'queued', nextAttemptAt: at(-7200) });
    await delivery(halfOpen, { status: 'queued', nextAttemptAt: at(-7000) });
    await t.dataSource.query(
      `INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, open_until, opened_at)
       VALUES (?, 5, 1, ?, ?), (?, 5, 1, ?, ?)`,
      [open, at(60), at(-60), halfOpen, at(-10), at(-100)],
    );
    await expect(deliveries.dueEndpoints(single, base, 10)).resolves.toEqual([halfOpen, a, b, deleted]);
    await expect(deliveries.dueEndpoints(single, base, 2)).resolves.toEqual([halfOpen, a]);
    // Once its time is over, the open one is listed for its probe.
    await expect(deliveries.dueEndpoints(single, at(61), 1)).resolves.toEqual([open]);
  });

  it('finds the runs holding their endpoints whose job has not begun, the first to end first, up to the limit', async () => {
    await schedule();
    await run(b, runId(b), at(5));
    // A run that began holds its endpoint under an id of its own: the run renews its hold itself.
    await run(deleted, `${runId(deleted)}/4f2a`, at(1));
    const waiting = [
      { subscriptionId: b, runId: runId(b) },
      { subscriptionId: inFlight, runId: runId(inFlight) },
    ];
    await expect(deliveries.unstartedRuns(base, 10)).resolves.toEqual(waiting);
    await expect(deliveries.unstartedRuns(base, 1)).resolves.toEqual(waiting.slice(0, 1));
    await expect(deliveries.unstartedRuns(at(10), 10)).resolves.toEqual([]);
  });

  it("reads a run's next batch, oldest due first, up to the limit", async () => {
    await schedule();
    const next = (limit: number) =>
      deliveries
        .claimDue(single, a, base, limit)
        .then(({ attempts, over }) => ({ ids: attempts.map((row) => row.id), over }));
    await expect(next(10)).resolves.toEqual({ ids: ['dlv_8', 'dlv_1', 'dlv_2'], over: 0 });
    await expect(next(2)).resolves.toEqual({ ids: ['dlv_8', 'dlv_1'], over: 0 });
  });

  it('never reads a delivery that is over as a next attempt, and takes it off the schedule', async () => {
    await schedule();
    // Delivered, yet with a due time (a hand's edit): the oldest due row of the endpoint.
    await delivery(a, { status: 'delivered', nextAttemptAt: at(-1000) });
    const overId = `dlv_${sequence}`;
    const claimed = async (limit: number) => {
      const { attempts, over } = await deliveries.claimDue(single, a, base, limit);
      return { ids: attempts.map((row) => row.id), over };
    };
    await expect(claimed(10)).resolves.toEqual({ ids: ['dlv_8', 'dlv_1', 'dlv_2'], over: 1 });
    await expect(claimed(2)).resolves.toEqual({ ids: ['dlv_8'], over: 1 });
    // A run's next batch, read with its outcome, leaves it out too.
    const nextBatch = deliveries.claimStatement(a, base, 10);
    const work = nextBatch.read(await single.query(nextBatch.sql, [...nextBatch.values]));
    expect(work.map((row) => row.id)).toEqual(['dlv_8', 'dlv_1', 'dlv_2']);

    await expect(deliveries.unscheduleFinished(single, a, base)).resolves.toBe(1);
    await expect(claimed(2)).resolves.toEqual({ ids: ['dlv_8', 'dlv_1'], over: 0 });
    const [row] = await single.query('SELECT next_attempt_at AS at FROM webhook_deliveries WHERE id = ?', [
      overId,
    ]);
    expect(row.at).toBeNull();
    // Rows still waiting keep their time.
    await expect(webhooks.outboxBacklog(base)).resolves.toEqual({ pending: 9, oldestAt: at(-900) });
  });

  it('counts the backlog of due attempts (in flight included), and since when the oldest is due', async () => {
    await schedule();
    await expect(webhooks.outboxBacklog(base)).resolves.toEqual({ pending: 9, oldestAt: at(-900) });
    await expect(webhooks.outboxBacklog(at(-3600))).resolves.toEqual({ pending: 0, oldestAt: null });
  });

  it("tells when an endpoint started failing when a batch's attempts share their time", async () => {
    const placeId = randomUUID();
    const url = 'https://hooks.example.com/in';
    await t.dataSource.query(
      `INSERT INTO webhook_deliveries
         (id, event_id, event_type, payload, subscription_id, place_id, url, status, attempts, created_at)
       VALUES ('dlv_t1', 'evt_t1', 'CHECK_IN_CREATED', '{}', ?, ?, ?, 'delivered', 1, ?),
              ('dlv_t2', 'evt_t2', 'CHECK_IN_CREATED', '{}', ?, ?, ?, 'queued', 1, ?)`,
      [a, placeId, url, at(-60), a, placeId, url, at(-60)],
    );
    const attempt = (deliveryId: string, statusCode: number) =>
      t.dataSource.query(
        `INSERT INTO webhook_attempts (delivery_id, number, url, status_code, duration_ms, created_at)
         VALUES (?, 1, ?, ?, 3, ?)`,
        [deliveryId, url, statusCode, at(-30)],
      );
    const failingSince = async () =>
      (
        await t.app
          .get(DeliveryHealthRepository)
          .failingSince([{ subscriptionId: a, placeId, url }], at(-120))
      ).get(a);
    // One batch, one send time: a 200 answered first, then a 503. The endpoint is failing since that moment.
    await attempt('dlv_t1', 200);
    await attempt('dlv_t2', 503);
    await expect(failingSince()).resolves.toEqual(at(-30));
    // A later answer of the same time, a success: it is not failing any more.
    await attempt('dlv_t1', 200);
    await expect(failingSince()).resolves.toBeNull();
  });

  it('reads as many index entries with thousands of delivered rows as the endpoints and due rows need', async () => {
    await schedule();
    await history([a, b, deleted, historyOnly, inFlight, later], 1000);
    await single.query('ANALYZE TABLE webhook_deliveries');
    const reads = async (query: () => Promise<unknown>) => {
      await single.query('FLUSH STATUS');
      await query();
      const counters: { Value: string }[] = await single.query(
        "SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_read%'",
      );
      return counters.reduce((sum, counter) => sum + Number(counter.Value), 0);
    };
    // Walking the 6,000 delivered rows would read thousands; each query needs a few reads per endpoint.
    expect(await reads(() => deliveries.dueEndpoints(single, base, 10))).toBeLessThan(100);
    expect(await reads(() => deliveries.claimDue(single, a, base, 64))).toBeLessThan(100);
    expect(await reads(() => deliveries.unscheduleFinished(single, a, base))).toBeLessThan(100);
    expect(await reads(() => webhooks.outboxBacklog(base))).toBeLessThan(100);
  });
});
