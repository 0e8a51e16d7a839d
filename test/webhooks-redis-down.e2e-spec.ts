import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { envelope } from './support/http';
import { OwnRedis } from './support/own-servers';
import { freePort } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

describe('check-ins while Redis is down (e2e)', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    receiver = await new WebhookReceiver().start();
    await truncateAll(t.dataSource);
  });
  afterAll(async () => {
    await redis.start();
    await t.close();
    await receiver.stop();
    await redis.stop();
  });

  it('answers 204 to 50 check-ins with Redis down, and delivers all 50 events once Redis is back', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const plan = await createBenefitPlan(t.dataSource);
    const members = await Promise.all(
      Array.from({ length: 50 }, () => createBeneficiary(t.dataSource, plan)),
    );

    await redis.stop();
    const answers = await Promise.all(
      members.map((m) =>
        request(t.http)
          .post('/v1/track_usages')
          .set('x-api-key', gym.placeApiKey)
          .send(envelope({ identifier: m.cpf })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(204));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received).toHaveLength(0);
    const [{ pending }] = await t.dataSource.query(
      "SELECT COUNT(*) AS pending FROM webhook_deliveries WHERE status = 'pending'",
    );
    expect(Number(pending)).toBe(50);

    await redis.start();
    const delivered = async () =>
      Number(
        (
          await t.dataSource.query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'delivered'")
        )[0].n,
      );
    await eventually(async () => (await delivered()) === 50, 30_000, 'all 50 delivered');
    // Anything sent twice would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(50);
    expect(new Set(ids).size).toBe(50);
    const events: { id: string }[] = await t.dataSource.query('SELECT event_id AS id FROM webhook_deliveries');
    expect(new Set(ids)).toEqual(new Set(events.map((event) => event.id)));
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM webhook_attempts');
    expect(Number(n)).toBe(50);
  });
});
