import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { BatchTransaction, Statement } from '../src/database/statement-batch';
import { attemptName } from '../src/modules/webhooks/delivery/delivery-policy';
import { DeliveryRecorder } from '../src/modules/webhooks/delivery/delivery-recorder';
import { DeliveryRunner } from '../src/modules/webhooks/delivery/delivery-runner';
import { WebhooksRepository } from '../src/modules/webhooks/webhooks.repository';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { envelope, expectError, partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver, whileHeld } from './support/webhook-receiver';

/**
 * Destination isolation: a receiver that hangs (60 s attempt deadline) or fails spends only its endpoint's
 * share of the workers; the breaker backs a failing endpoint off and says so; test events are limited.
 */
describe('webhook destinations are isolated (e2e)', () => {
  let t: TestApp;
  let hanging: WebhookReceiver;
  let healthy: WebhookReceiver;
  /** Answers the hanging receiver holds open, and the most it ever held at once. */
  let open: ServerResponse[] = [];
  let mostOpen = 0;

  beforeAll(async () => {
    t = await createTestApp({
      WEBHOOK_TIMEOUT_MS: '60000',
      WEBHOOK_WORKERS: '16',
      WEBHOOK_ENDPOINT_CONCURRENCY: '4',
      WEBHOOK_BREAKER_FAILURES: '3',
      WEBHOOK_BREAKER_OPEN_SECONDS: '30',
      WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1',
      WEBHOOK_TEST_EVENTS_PER_MINUTE: '3',
    });
    hanging = await new WebhookReceiver().start();
    healthy = await new WebhookReceiver().start();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    hanging.reset();
    healthy.reset();
    open = [];
    mostOpen = 0;
    t.clock.reset();
  });
  afterEach(() => {
    for (const res of open) res.destroy();
  });
  afterAll(async () => {
    await t.close();
    await hanging.stop();
    await healthy.stop();
  });

  async function subscribedGym(url: string, members: number) {
    const gym = await createGym(t);
    const auth = `Bearer ${await partnerToken(t.http, gym)}`;
    await request(t.http)
      .post('/partner/webhook/create')
      .set('Authorization', auth)
      .send({ webhook_url: url, webhook_type: 'CHECKIN' })
      .expect(201);
    const plan = await createBenefitPlan(t.dataSource);
    const people = await Promise.all(
      Array.from({ length: members }, () => createBeneficiary(t.dataSource, plan)),
    );
    const checkIns = () =>
      Promise.all(
        people.map((m) =>
          request(t.http)
            .post('/v1/track_usages')
            .set('x-api-key', gym.placeApiKey)
            .send(envelope({ identifier: m.cpf }))
            .expect(204),
        ),
      );
    return { gym, auth, checkIns };
  }

  const countBy = async (placeId: string) =>
    (
      await t.dataSource.query(
        `SELECT SUM(status = 'delivered') AS delivered, SUM(status = 'failed') AS failed
         FROM webhook_deliveries WHERE place_id = ?`,
        [placeId],
      )
    ).map((row: Record<string, string | null>) => ({
      delivered: Number(row.delivered ?? 0),
      failed: Number(row.failed ?? 0),
    }))[0];
  /** A run holds the place's endpoint: it has attempts in flight, or is about to (a run frees it when it ends). */
  const running = async (placeId: string) =>
    (
      await t.dataSource.query(
        `SELECT st.run_id FROM webhook_endpoint_states st
         JOIN webhook_subscriptions s ON s.id = st.subscription_id
         WHERE s.place_id = ? AND st.run_id IS NOT NULL`,
        [placeId],
      )
    ).length > 0;

  it('delivers every event of a healthy gym while a hanging gym holds only its share of attempts open', async () => {
    hanging.respond((_r, _i, res) => {
      open.push(res);
      mostOpen = Math.max(mostOpen, open.filter((r) => !r.destroyed).length);
    });
    const stuck = await subscribedGym(hanging.url(), 24);
    const fine = await subscribedGym(healthy.url(), 12);

    await whileHeld(t.dataSource, stuck.gym.place.id, stuck.checkIns);
    await eventually(() => hanging.received.length === 4, 15_000, 'the hanging gym to hold its share');
    await fine.checkIns();
    await eventually(() => healthy.received.length === 12, 20_000, 'the healthy gym’s 12 events');

    // Every attempt to the hanging receiver is still open (60 s deadline): it never had more than 4.
    expect(hanging.received).toHaveLength(4);
    expect(mostOpen).toBe(4);
    expect(await countBy(stuck.gym.place.id)).toEqual({ delivered: 0, failed: 0 });
    expect(await running(stuck.gym.place.id)).toBe(true);
    await eventually(async () => (await countBy(fine.gym.place.id)).delivered === 12, 10_000, '12 recorded');
    expect(await countBy(fine.gym.place.id)).toEqual({ delivered: 12, failed: 0 });
    await eventually(async () => !(await running(fine.gym.place.id)), 10_000, 'the healthy run to end');
    expect(new Set(healthy.received.map((r) => r.headers['webhook-id'])).size).toBe(12);
  }, 60_000);

  it('opens the breaker of a failing endpoint: its deliveries wait, its owner sees it, one probe closes it', async () => {
    healthy.respond((_r, _i, res) => res.writeHead(500).end('down'));
    const g = await subscribedGym(healthy.url(), 2);
    await g.checkIns();

    const state = async () =>
      (await request(t.http).get('/partner/webhook/get').set('Authorization', g.auth).expect(200)).body
        .webhooks[0].delivery_state;
    await eventually(async () => (await state()).state === 'open', 15_000, 'the breaker to open');
    const opened = await state();
    expect(opened.consecutive_failures).toBeGreaterThanOrEqual(3);
    expect(opened.last_error).toBe('HTTP 500');
    expect(opened.open_until).toEqual(expect.any(String));

    // Attempts handed over before it opened report back; after that nothing goes out and nothing is failed:
    // the deliveries wait, due.
    await eventually(async () => !(await running(g.gym.place.id)), 15_000, 'attempts back');
    const sent = healthy.received.length;
    for (let i = 0; i < 4; i++) await new Promise((resolve) => setTimeout(resolve, 300));
    expect(healthy.received).toHaveLength(sent);
    expect(await countBy(g.gym.place.id)).toEqual({ delivered: 0, failed: 0 });
    expect(await running(g.gym.place.id)).toBe(false);

    const admin = await request(t.http)
      .get(`/admin/deliveries?place_id=${g.gym.place.id}`)
      .set('Authorization', `Bearer ${t.config.adminApiToken}`)
      .expect(200);
    expect(admin.body.data[0].endpoint_state).toMatchObject({ state: 'open' });

    // The wait is over: one probe goes, succeeds, closes the breaker, and the rest follow.
    healthy.respond((_r, _i, res) => res.writeHead(200).end('ok'));
    t.clock.set(new Date(Date.now() + 31_000));
    await eventually(async () => (await countBy(g.gym.place.id)).delivered === 2, 15_000, 'both delivered');
    expect(healthy.received).toHaveLength(sent + 2);
    expect(await state()).toMatchObject({ state: 'closed', consecutive_failures: 0, last_error: null });
  }, 60_000);

  it('limits test events per place: 429 rate_limited with Retry-After past the limit', async () => {
    const g = await subscribedGym(healthy.url(), 0);
    for (let i = 0; i < 3; i++)
      await request(t.http).post('/partner/webhook/test/CHECKIN').set('Authorization', g.auth).expect(202);
    const refused = await request(t.http).post('/partner/webhook/test/CHECKIN').set('Authorization', g.auth);
    expectError(refused, 429, 'rate_limited', 'Too Many Requests');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);

    // Another place has its own limit; and a minute later this one may test again.
    const other = await subscribedGym(healthy.url(), 0);
    await request(t.http).post('/partner/webhook/test/CHECKIN').set('Authorization', other.auth).expect(202);
    t.clock.set(new Date(Date.now() + 61_000));
    await request(t.http).post('/partner/webhook/test/CHECKIN').set('Authorization', g.auth).expect(202);
  });

  /**
   * `count` deliveries to a subscribed gym's endpoint, due in an hour, the endpoint held by a run of the test's
   * until three hours from now (so the poller starts none), and how that run reports attempts and batches.
   */
  async function reportedDeliveries(count: number) {
    const g = await subscribedGym(healthy.url(), 0);
    const repository = t.app.get(WebhooksRepository);
    const [subscription] = await t.dataSource.query(
      'SELECT id FROM webhook_subscriptions WHERE place_id = ?',
      [g.gym.place.id],
    );
    const now = new Date();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        await repository.insertEvent(t.dataSource, {
          id: `evt_batch_${i}`,
          placeId: g.gym.place.id,
          type: 'TEST',
          payload: '{}',
          createdAt: new Date(now.getTime() + 3_600_000),
          subscriptionId: String(subscription.id),
          url: healthy.url(),
        }),
      );
    }
    const record = (deliveryId: string, code: number) => ({
      deliveryId,
      redeliveries: 0,
      attempts: 0,
      ok: code === 204,
      attempt: {
        number: 1,
        url: healthy.url(),
        statusCode: code,
        durationMs: 3,
        responseBody: null,
        error: code === 204 ? null : `HTTP ${code}`,
        createdAt: now,
      },
      ...(code === 204
        ? { status: 'delivered' as const, nextAttemptAt: null }
        : { status: 'queued' as const, nextAttemptAt: new Date(now.getTime() + 10_800_000) }),
    });
    const runId = 'run.test/holder';
    await t.dataSource.query(
      'INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, run_id, run_until) VALUES (?, 0, 0, ?, ?)',
      [String(subscription.id), runId, new Date(now.getTime() + 10_800_000)],
    );
    const batch = (attempts: ReturnType<typeof record>[], claimNext: number, by = runId) => ({
      subscriptionId: String(subscription.id),
      runId: by,
      attempts,
      mayBeFailing: false,
      breakerThreshold: 3,
      breakerOpenSeconds: 30,
      claimNext,
    });
    /** Due only after the batches' moment: not among the run's next attempts. */
    const dueLater = (some: string[]) =>
      t.dataSource.query('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id IN (?)', [
        new Date(now.getTime() + 10_800_000),
        some,
      ]);
    const lease = {
      now: new Date(now.getTime() + 7_200_000),
      leaseUntil: new Date(now.getTime() + 7_300_000),
    };
    const hold = async () =>
      (
        await t.dataSource.query(
          'SELECT run_until AS until FROM webhook_endpoint_states WHERE subscription_id = ?',
          [String(subscription.id)],
        )
      )[0].until as Date;
    return { now, ids, record, batch, dueLater, lease, hold };
  }

  it('records outcomes reported together only for the attempt each delivery still waits for', async () => {
    const { now, ids, record, batch, dueLater, lease, hold } = await reportedDeliveries(7);
    // The fourth has moved on to its second attempt since, due later.
    await t.dataSource.query('UPDATE webhook_deliveries SET attempts = 1 WHERE id = ?', [ids[3]]);
    await dueLater([ids[3]]);

    const results = await t.app.get(DeliveryRecorder).record(
      // The second copy of ids[0] is a stray copy of the same attempt; ids[3]'s is a stale one. The batch with
      // a failure claims nothing; the other asks for up to two next attempts.
      [
        batch([record(ids[0], 204), record(ids[1], 500), record(ids[0], 204)], 0),
        batch([record(ids[2], 204), record(ids[3], 204)], 2),
        // A run that no longer holds the endpoint, in the same transaction: its outcome is written, and what
        // it read of the endpoint's next attempts dropped.
        batch([record(ids[5], 204)], 1, 'run.test/gone'),
      ],
      lease,
    );

    expect(results.map((r) => r.recorded)).toEqual([[true, true, false], [true, false], [true]]);
    // A success, then a failure: the endpoint's count starts again at 1.
    expect(results[0].breaker).toMatchObject({ failures: 1 });
    expect(results[0].next).toEqual([]);
    expect(results[0].heldUntil).toBeNull();
    // The run holding the endpoint renewed its hold and read its next attempts with their work: the due rows
    // that no outcome moved.
    expect(results[1].heldUntil).toEqual(lease.leaseUntil);
    expect(await hold()).toEqual(lease.leaseUntil);
    expect(results[1].next.map((work) => work.id).sort()).toEqual([ids[4], ids[6]].sort());
    expect(results[1].next).toContainEqual(
      expect.objectContaining({ id: ids[4], attempts: 0, status: 'pending', eventId: 'evt_batch_4' }),
    );
    expect(results[2]).toMatchObject({ recorded: [true], next: [], heldUntil: null });
    const rows = await t.dataSource.query(
      `SELECT id, status, attempts, last_status_code AS code, last_error AS error, last_attempt_at AS lastAt,
              next_attempt_at AS nextAt, delivered_at AS deliveredAt
       FROM webhook_deliveries`,
    );
    const byId = new Map<string, Record<string, unknown>>(
      rows.map((row: Record<string, unknown>) => [String(row.id), row]),
    );
    // One batch's outcomes differ column by column: each row gets its own.
    expect(byId.get(ids[0])).toMatchObject({
      status: 'delivered',
      attempts: 1,
      code: 204,
      error: null,
      lastAt: now,
      nextAt: null,
      deliveredAt: now,
    });
    expect(byId.get(ids[1])).toMatchObject({
      status: 'queued',
      attempts: 1,
      code: 500,
      error: 'HTTP 500',
      lastAt: now,
      nextAt: new Date(now.getTime() + 10_800_000),
      deliveredAt: null,
    });
    expect(byId.get(ids[2])).toMatchObject({ status: 'delivered', attempts: 1, code: 204 });
    expect(byId.get(ids[3])).toMatchObject({ status: 'pending', attempts: 1, code: null });
    expect(byId.get(ids[4])).toMatchObject({ status: 'pending', attempts: 0 });
    // This test's deliveries only: an earlier test's delivery may still record a late attempt beside them.
    const attempts = await t.dataSource.query(
      'SELECT delivery_id AS id, number FROM webhook_attempts WHERE delivery_id IN (?) ORDER BY id',
      [ids],
    );
    expect(attempts.map((a: { id: string }) => a.id).sort()).toEqual([ids[0], ids[1], ids[2], ids[5]].sort());
  });

  it('writes a usual batch without reading its rows first; one attempt no longer awaited rolls that back and reads them', async () => {
    const { ids, record, batch, dueLater, lease } = await reportedDeliveries(5);
    // The third and fourth are sent by a later batch of the run; the fifth is its next attempt.
    await dueLater(ids.slice(2, 4));
    const sent: Statement[] = [];
    const run = BatchTransaction.prototype.run;
    const spy = jest.spyOn(BatchTransaction.prototype, 'run').mockImplementation(function (
      this: BatchTransaction,
      ...statements: Statement[]
    ) {
      sent.push(...statements);
      return run.apply(this, statements) as ReturnType<typeof run>;
    });
    // This test's reads only: a late outcome of an earlier test's attempt may be written meanwhile.
    const lockReads = () =>
      sent.filter(
        (each) =>
          /WHERE id IN \(\?\) FOR UPDATE/.test(each.sql) &&
          (each.values[0] as string[]).some((id) => ids.includes(id)),
      ).length;
    const recorder = t.app.get(DeliveryRecorder);
    try {
      // Both still awaited: moved, logged, and the endpoint's next attempt claimed, without a read of the rows.
      const [usual] = await recorder.record([batch([record(ids[0], 204), record(ids[1], 204)], 2)], lease);
      expect(usual.recorded).toEqual([true, true]);
      expect(usual.next.map((work) => work.id)).toEqual([ids[4]]);
      expect(lockReads()).toBe(0);
      // The third has moved on to its second attempt: the guarded move finds one row of two, the transaction
      // is rolled back and written again with the rows read first; only the fourth's attempt is logged.
      await t.dataSource.query('UPDATE webhook_deliveries SET attempts = 1 WHERE id = ?', [ids[2]]);
      const [stale] = await recorder.record([batch([record(ids[2], 204), record(ids[3], 204)], 1)], lease);
      expect(stale.recorded).toEqual([false, true]);
      expect(lockReads()).toBe(1);
    } finally {
      spy.mockRestore();
    }
    const rows = await t.dataSource.query(
      'SELECT id, status, attempts FROM webhook_deliveries WHERE id IN (?) ORDER BY id',
      [ids.slice(2, 4)],
    );
    expect(rows.map((row: { status: string; attempts: number }) => [row.status, row.attempts])).toEqual(
      [ids[2], ids[3]].sort().map((id) => (id === ids[2] ? ['pending', 1] : ['delivered', 1])),
    );
    const attempts = await t.dataSource.query(
      'SELECT delivery_id AS id FROM webhook_attempts WHERE delivery_id IN (?)',
      [ids],
    );
    expect(attempts.map((a: { id: string }) => a.id).sort()).toEqual([ids[0], ids[1], ids[3]].sort());
  });

  it('never sends an event twice because its outcome could not be written at once (deadlock)', async () => {
    const g = await subscribedGym(healthy.url(), 1);
    // The outcome's transaction loses a deadlock once its moves and attempt insert have run: it is rolled back
    // and runs again from its start.
    const run = BatchTransaction.prototype.run;
    let deadlocks = 0;
    const spy = jest.spyOn(BatchTransaction.prototype, 'run').mockImplementation(async function (
      this: BatchTransaction,
      ...statements: Statement[]
    ) {
      const results = await (run.apply(this, statements) as ReturnType<typeof run>);
      if (deadlocks === 0 && statements.some((each) => each.sql.includes('INSERT INTO webhook_attempts'))) {
        deadlocks++;
        const deadlock = Object.assign(new Error('Deadlock found when trying to get lock'), {
          code: 'ER_LOCK_DEADLOCK',
          errno: 1213,
        });
        throw new QueryFailedError('INSERT INTO webhook_attempts', [], deadlock);
      }
      return results;
    });
    try {
      await g.checkIns();
      await eventually(async () => (await countBy(g.gym.place.id)).delivered === 1, 15_000, 'delivered');
      for (let i = 0; i < 4; i++) await new Promise((resolve) => setTimeout(resolve, 300));
      expect(deadlocks).toBe(1);
      expect(healthy.received).toHaveLength(1);
      const [row] = await t.dataSource.query('SELECT attempts FROM webhook_deliveries');
      expect(Number(row.attempts)).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });
  /** Three due deliveries of a gym whose endpoint a run (`runId`) holds until `until`; the job naming them. */
  async function heldEndpoint(runId: (subscriptionId: string) => string, until: Date) {
    const { ids } = await reportedDeliveries(3);
    const [{ id: subscriptionId }] = await t.dataSource.query(
      'SELECT subscription_id AS id FROM webhook_deliveries WHERE id = ?',
      [ids[0]],
    );
    await t.dataSource.query('UPDATE webhook_deliveries SET next_attempt_at = NOW(3) WHERE id IN (?)', [ids]);
    const jobId = runId(String(subscriptionId));
    await t.dataSource.query(
      'UPDATE webhook_endpoint_states SET run_id = ?, run_until = ? WHERE subscription_id = ?',
      [jobId, until, String(subscriptionId)],
    );
    const job = {
      subscriptionId: String(subscriptionId),
      attempts: ids.map((id) => attemptName(id, 0, 1)),
    };
    const state = async () =>
      (
        await t.dataSource.query(
          'SELECT run_id AS runId, run_until AS runUntil FROM webhook_endpoint_states WHERE subscription_id = ?',
          [String(subscriptionId)],
        )
      )[0] as { runId: string | null; runUntil: Date | null };
    return { ids, jobId, job, state };
  }

  it('sends a run once however many copies of its job begin: the first takes the endpoint over, the others send nothing', async () => {
    const { ids, jobId, job, state } = await heldEndpoint(
      (subscriptionId) => `run.${subscriptionId}.${Date.now()}`,
      new Date(Date.now() + 60_000),
    );
    const runner = t.app.get(DeliveryRunner);
    const runs = await Promise.all([runner.run(job, jobId), runner.run(job, jobId), runner.run(job, jobId)]);

    expect(runs.map((run) => run.delivered).sort()).toEqual([0, 0, 3]);
    expect(healthy.received.map((each) => each.headers['webhook-id']).sort()).toEqual(
      ['evt_batch_0', 'evt_batch_1', 'evt_batch_2'].sort(),
    );
    expect(
      (
        await countBy(
          (
            await t.dataSource.query('SELECT place_id AS id FROM webhook_deliveries WHERE id = ?', [ids[0]])
          )[0].id,
        )
      ).delivered,
    ).toBe(3);
    // The run is over: the endpoint is free for the poller's next one.
    expect(await state()).toEqual({ runId: null, runUntil: null });
  });

  it('sends nothing for a job that begins once another run holds its endpoint', async () => {
    // Ids of runs started just now: the app's own lost-run check (every 2 s) leaves such runs alone.
    const { job, state } = await heldEndpoint(
      (subscriptionId) => `run.${subscriptionId}.${Date.now()}`,
      new Date(Date.now() + 60_000),
    );
    const other = (await state()).runId as string;
    const taker = `run.other.${Date.now()}`;
    // The poller started another run meanwhile (the job's hold had ended): the late job finds it taken.
    await t.dataSource.query('UPDATE webhook_endpoint_states SET run_id = ? WHERE run_id = ?', [
      taker,
      other,
    ]);
    const late = await t.app.get(DeliveryRunner).run(job, other);

    expect(late).toEqual({ delivered: 0, failed: 0, batches: 0 });
    expect(healthy.received).toHaveLength(0);
    expect((await state()).runId).toBe(taker);
  });
});
