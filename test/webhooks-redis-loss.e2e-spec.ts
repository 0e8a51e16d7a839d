import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import request from 'supertest';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { envelope } from './support/http';
import { OwnRedis } from './support/own-servers';
import { freePort } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver, whileHeld } from './support/webhook-receiver';

/**
 * Redis loses everything (killed and started again empty) while deliveries wait for a retry and others sit in
 * the queue before their first attempt: the database still knows every schedule, so each one resumes.
 */
describe('webhook deliveries after Redis loses its data (e2e)', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    t = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      WEBHOOK_RETRY_SCHEDULE: '8,8,8,8',
      WEBHOOK_ENDPOINT_CONCURRENCY: '64',
      // The receiver's 20 refusals must not open its breaker here.
      WEBHOOK_BREAKER_FAILURES: '1000',
    });
    receiver = await new WebhookReceiver().start();
    await truncateAll(t.dataSource);
  });
  afterAll(async () => {
    await redis.start();
    await t.close();
    await receiver.stop();
    await redis.stop();
  });

  it('resumes every schedule: retries go out when due, lost first attempts within seconds, none failed', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const plan = await createBenefitPlan(t.dataSource);
    const members = await Promise.all(
      Array.from({ length: 30 }, () => createBeneficiary(t.dataSource, plan)),
    );
    const checkIn = (m: { cpf: string }) =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier: m.cpf }))
        .expect(204);
    const count = async (where: string) =>
      Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE ${where}`))[0].n);

    // 20 deliveries fail once and wait for their retry (8 s).
    receiver.respond((_r, _i, res) => res.writeHead(503).end('down'));
    await Promise.all(members.slice(0, 20).map(checkIn));
    await eventually(
      async () => (await count("status = 'queued' AND attempts = 1")) === 20,
      20_000,
      '20 retries',
    );
    // 10 more sit in the queue, not attempted (this process's workers are paused).
    const queue = t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
    await queue.pause(true);
    await whileHeld(t.dataSource, gym.place.id, () => Promise.all(members.slice(20).map(checkIn)));
    const attemptsInRedis = async () =>
      (await queue.getJobs(['waiting', 'paused'])).reduce(
        (sum, job) => sum + ((job.data as { attempts?: string[] }).attempts?.length ?? 0),
        0,
      );
    await eventually(async () => (await attemptsInRedis()) >= 10, 15_000, '10 attempts in Redis');

    // Redis dies and comes back with nothing; the receiver is fine again.
    await redis.stop();
    await redis.start();
    receiver.respond((_r, _i, res) => res.writeHead(200).end('ok'));
    await queue.resume(true);

    await eventually(async () => (await count("status = 'delivered'")) === 30, 45_000, '30 delivered');
    // Every attempt, so that a failure here says which attempts went wrong and how.
    const attempts: { number: number; status_code: number | null; error: string | null }[] =
      await t.dataSource.query('SELECT number, status_code, error FROM webhook_attempts ORDER BY id');
    const byOutcome = attempts.map((a) => `#${a.number} ${a.status_code ?? '-'} ${a.error ?? ''}`.trim());
    expect({
      failed: await count("status = 'failed'"),
      deliveredOnSecondTry: await count("status = 'delivered' AND attempts = 2"),
      deliveredOnFirstTry: await count("status = 'delivered' AND attempts = 1"),
      attempts: byOutcome.sort(),
    }).toEqual({
      failed: 0,
      deliveredOnSecondTry: 20,
      deliveredOnFirstTry: 10,
      attempts: [
        ...Array.from({ length: 20 }, () => '#1 503 HTTP 503'),
        ...Array.from({ length: 10 }, () => '#1 200'),
        ...Array.from({ length: 20 }, () => '#2 200'),
      ].sort(),
    });
    // 20 refused first attempts, then each of the 30 events once.
    expect(receiver.received).toHaveLength(20 + 30);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(30);
  }, 90_000);
});
