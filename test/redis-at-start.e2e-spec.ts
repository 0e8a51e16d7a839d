import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { envelope, partnerToken } from './support/http';
import { OwnRedis } from './support/own-servers';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

describe('a process started while Redis is down (e2e, real process)', () => {
  let t: TestApp;
  let redis: OwnRedis;
  let receiver: WebhookReceiver;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    t = await createTestApp();
    await truncateAll(t.dataSource);
    redis = new OwnRedis(await freePort());
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await service?.stop();
    await redis.stop();
    await receiver.stop();
  });

  it('starts, answers check-ins 204 and reports the queue down; delivers the event once Redis comes up', async () => {
    const gym = await createGym(t);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const admin = `Bearer ${t.config.adminApiToken}`;
    // The in-test app would relay the outbox to the shared Redis: only the process under test runs from here.
    await t.close();
    const port = await freePort();
    service = new ServiceProcess({ PORT: String(port), REDIS_URL: redis.url });
    await service.waitUntilListening();
    const base = `http://127.0.0.1:${port}`;

    const live = await request(base).get('/health/live').expect(200);
    expect(live.body.status).toBe('ok');
    const ready = await request(base).get('/health/ready').expect(503);
    expect(ready.body.status).toBe('error');
    expect(ready.body.details.database.status).toBe('up');
    expect(ready.body.details.queue.status).toBe('down');
    expect(ready.body.details.queue.connection).not.toBe('ready');
    expect((await request(base).get('/health').expect(503)).body.details.queue.status).toBe('down');

    const token = await partnerToken(base, gym);
    await request(base)
      .post('/partner/webhook/create')
      .set('Authorization', `Bearer ${token}`)
      .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' })
      .expect(201);
    await request(base)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(envelope({ identifier: member.cpf }))
      .expect(204);
    const outbox = await request(base).get('/admin/deliveries').set('Authorization', admin).expect(200);
    expect(outbox.body.data.map((d: { status: string }) => d.status)).toEqual(['pending']);
    expect(receiver.received).toHaveLength(0);

    await redis.start();
    await eventually(() => receiver.received.length === 1, 30_000, 'the event to be delivered');
    expect(receiver.received[0].body).toContain('CHECK_IN_CREATED');
    await eventually(
      async () => (await request(base).get('/health/ready')).status === 200,
      15_000,
      'readiness to be ok',
    );
    const after = await request(base).get('/health/ready').expect(200);
    expect(after.body.details).toEqual({
      database: { status: 'up' },
      queue: { status: 'up', connection: 'ready' },
    });
    expect(service.logs).toContain('Starting without Redis');
  });
});
