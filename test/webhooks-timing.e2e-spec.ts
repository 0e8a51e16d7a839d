import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { envelope, partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/** Deadlines and delays of delivery attempts: a 1 s attempt deadline, retries after 0.2 s and then 3 s. */
describe('webhook attempt deadlines and retry timing (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let queue: Queue;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_SCHEDULE: '0.2,3' });
    receiver = await new WebhookReceiver().start();
    queue = t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    receiver.reset();
    t.clock.reset();
  });
  afterEach(async () => {
    t.clock.reset();
    await queue.resume(true);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function subscribedGym() {
    const gym = await createGym(t);
    const token = await partnerToken(t.http, gym);
    const auth = `Bearer ${token}`;
    await request(t.http)
      .post('/partner/webhook/create')
      .set('Authorization', auth)
      .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' })
      .expect(201);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const checkIn = () =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier: member.cpf }))
        .expect(204);
    return { auth, checkIn };
  }

  async function delivery(): Promise<{ id: string; status: string; attempts: number; last_error: string }> {
    const [row] = await t.dataSource.query('SELECT id, status, attempts, last_error FROM webhook_deliveries');
    return row && { ...row, attempts: Number(row.attempts) };
  }

  function attempts(): Promise<
    { number: number; status_code: number | null; error: string | null; body: string | null }[]
  > {
    return t.dataSource.query(
      'SELECT number, status_code, error, response_body AS body FROM webhook_attempts ORDER BY id',
    );
  }

  /** Answers `status` (200) and then sends `chunk` every `everyMs` until the connection goes. */
  function streamForever(
    res: ServerResponse,
    chunk: string,
    everyMs: number,
    closed: () => void,
    status = 200,
  ) {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.flushHeaders();
    const timer = setInterval(() => res.write(chunk), everyMs);
    res.on('close', () => {
      clearInterval(timer);
      closed();
    });
  }

  describe('WEBHOOK_TIMEOUT_MS is one deadline for the whole attempt', () => {
    it('gives up on a failing receiver that trickles one byte every 200 ms, and closes its connection', async () => {
      let closed = false;
      receiver.respond((_r, index, res) =>
        index === 0 ? streamForever(res, '.', 200, () => (closed = true), 503) : res.writeHead(200).end('ok'),
      );
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(async () => (await delivery())?.status === 'delivered', 15_000, 'delivered');
      const [first, second] = await attempts();
      // Its status line arrived: the 503 decides the attempt, which ends at the deadline.
      expect(first).toMatchObject({ number: 1, status_code: 503, error: 'HTTP 503' });
      expect(first.body).toMatch(/^\.+$/);
      expect(second).toMatchObject({ number: 2, status_code: 200, error: null, body: 'ok' });
      const [{ duration }] = await t.dataSource.query(
        'SELECT duration_ms AS duration FROM webhook_attempts WHERE number = 1',
      );
      expect(Number(duration)).toBeGreaterThanOrEqual(1000);
      expect(closed).toBe(true);
    });

    it('counts a 200 whose body trickles as delivered once the status arrives, and closes the connection', async () => {
      let closed = false;
      receiver.respond((_r, _i, res) => streamForever(res, '.', 200, () => (closed = true)));
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(async () => (await delivery())?.status === 'delivered', 15_000, 'delivered');
      const logged = await attempts();
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ number: 1, status_code: 200, error: null });
      await eventually(() => closed, 5000, 'the connection to close');
      expect(receiver.received).toHaveLength(1);
    });

    it('reads no more than the first 4 KB of an answer that never ends: its status code decides', async () => {
      let closed = false;
      receiver.respond((_r, _i, res) => streamForever(res, 'x'.repeat(1000), 20, () => (closed = true)));
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(async () => (await delivery())?.status === 'delivered', 15_000, 'delivered');
      const logged = await attempts();
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ number: 1, status_code: 200, error: null });
      expect(logged[0].body).toBe('x'.repeat(4096));
      await eventually(() => closed, 5000, 'the connection to close');
      expect(receiver.received).toHaveLength(1);
    });
  });

  describe('retry delays', () => {
    it('count from the end of a timed-out attempt, not from its start', async () => {
      receiver.respond((_r, index, res) => (index === 0 ? undefined : res.writeHead(200).end()));
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(async () => (await attempts()).length === 1, 15_000, 'the first attempt');
      const [{ wait }] = await t.dataSource.query(
        'SELECT TIMESTAMPDIFF(MICROSECOND, last_attempt_at, next_attempt_at) / 1000 AS wait FROM webhook_deliveries',
      );
      // The 1 s deadline, then 0.2 s less its jitter of at most 20 %.
      expect(Number(wait)).toBeGreaterThanOrEqual(1000 + 160);
      await eventually(async () => (await delivery())?.status === 'delivered', 15_000, 'delivered');
      const [first, second] = receiver.received;
      expect(second.at - first.at).toBeGreaterThanOrEqual(1000 + 160);
    });
  });

  describe('Retry-After', () => {
    it('delays the next attempt as the receiver asks', async () => {
      receiver.respond((_r, index, res) =>
        index === 0 ? res.writeHead(503, { 'retry-after': '2' }).end('busy') : res.writeHead(200).end(),
      );
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(async () => (await delivery())?.status === 'delivered', 15_000, 'delivered');
      const [first, second] = receiver.received;
      // The schedule alone would have retried after 0.2 s.
      expect(second.at - first.at).toBeGreaterThanOrEqual(2000);
      expect(await attempts()).toMatchObject([{ status_code: 503 }, { status_code: 200 }]);
    });

    it('is capped at the longest wait of WEBHOOK_RETRY_SCHEDULE', async () => {
      receiver.respond((_r, index, res) =>
        index === 0
          ? res.writeHead(503, { 'retry-after': '86400' }).end('tomorrow')
          : res.writeHead(200).end(),
      );
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(async () => (await attempts()).length === 1, 15_000, 'the first attempt');
      const [{ wait, took }] = await t.dataSource.query(
        `SELECT TIMESTAMPDIFF(MICROSECOND, d.last_attempt_at, d.next_attempt_at) / 1000 AS wait, a.duration_ms AS took
         FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id`,
      );
      // The wait counts from the end of the attempt.
      expect(Number(wait)).toBe(3000 + Number(took));
      await eventually(async () => (await delivery())?.status === 'delivered', 15_000, 'delivered');
      const [first, second] = receiver.received;
      expect(second.at - first.at).toBeGreaterThanOrEqual(3000);
    });
  });

  describe('Redis losing jobs', () => {
    /** The job whose batch names that attempt of the delivery, if Redis holds one. */
    const jobOf = async (id: string, attempt: number) =>
      (await queue.getJobs(['waiting', 'paused', 'delayed', 'active'])).find((job) =>
        (job.data as { attempts?: string[] }).attempts?.includes(`${id}.r0.a${attempt}`),
      ) ?? null;

    it('queues again, within seconds, an attempt whose job Redis lost before it ran', async () => {
      await queue.pause(true);
      const g = await subscribedGym();
      await g.checkIn();
      // A run holds the endpoint: its job is in the queue.
      const running = async () =>
        (await t.dataSource.query('SELECT run_id FROM webhook_endpoint_states WHERE run_id IS NOT NULL'))[0];
      await eventually(async () => (await running()) !== undefined, 15_000, 'handed to the queue');
      const { id } = await delivery();
      await eventually(async () => (await jobOf(id, 1)) !== null, 5000, 'the job');
      await (await jobOf(id, 1))?.remove();

      await eventually(async () => (await jobOf(id, 1)) !== null, 15_000, 'the job queued again');
      await queue.resume(true);
      await eventually(async () => (await delivery()).status === 'delivered', 15_000, 'delivered');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(1);
      expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 1 });
    });

    it('keeps the run of a job that waits in the queue past its first hold: one job, sent once when it begins', async () => {
      await queue.pause(true);
      const g = await subscribedGym();
      await g.checkIn();
      const hold = async () =>
        (
          await t.dataSource.query(
            'SELECT run_id AS runId, run_until AS runUntil FROM webhook_endpoint_states WHERE run_id IS NOT NULL',
          )
        )[0] as { runId: string; runUntil: Date } | undefined;
      await eventually(async () => (await hold()) !== undefined, 15_000, 'handed to the queue');
      const first = (await hold()) as { runId: string; runUntil: Date };
      // The first hold (the 1 s deadline plus 10 s) ends while the job still waits: the lost-run check extends it.
      await eventually(
        async () => Date.now() > first.runUntil.getTime() + 1000,
        20_000,
        'the first hold to be over',
      );
      const later = await hold();
      expect(later?.runId).toBe(first.runId);
      expect(later?.runUntil.getTime()).toBeGreaterThan(first.runUntil.getTime());
      const { id } = await delivery();
      expect(
        (await queue.getJobs(['waiting', 'paused'])).filter((job) => job.id === first.runId),
      ).toHaveLength(1);
      expect(await jobOf(id, 1)).not.toBeNull();

      await queue.resume(true);
      await eventually(async () => (await delivery()).status === 'delivered', 15_000, 'delivered');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(1);
      expect(await hold()).toBeUndefined();
    }, 40_000);

    it('keeps a scheduled retry in the database only: nothing in Redis to lose, and it goes out when due', async () => {
      receiver.respond((_r, index, res) =>
        index === 0 ? res.writeHead(503, { 'retry-after': '3' }).end() : res.writeHead(200).end(),
      );
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(async () => (await attempts()).length === 1, 15_000, 'the first attempt');
      const { id } = await delivery();
      expect(await delivery()).toMatchObject({ status: 'queued', attempts: 1 });
      expect(await queue.getJobs(['delayed'])).toEqual([]);
      expect(await jobOf(id, 2)).toBeNull();

      await eventually(async () => (await delivery()).status === 'delivered', 15_000, 'delivered');
      expect(receiver.received).toHaveLength(2);
      expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 2 });
    });
  });
});
