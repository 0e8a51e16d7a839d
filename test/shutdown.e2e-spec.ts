import { DispatchFunc, inject } from 'light-my-request';
import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { envelope } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

describe('shutdown (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // The default attempt timeout (15 s): the shutdown must not wait for it.
    t = await createTestApp({ WEBHOOK_TIMEOUT_MS: '15000' });
    await truncateAll(t.dataSource);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(() => receiver.stop());

  it('aborts webhook attempts in flight, leaving them due again without counting them, and refuses new requests in the envelope', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    // A receiver that never answers.
    receiver.respond(() => undefined);
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(envelope({ identifier: member.cpf }))
      .expect(204);
    await eventually(() => receiver.received.length === 1, 15_000, 'the attempt to reach the receiver');

    const handler = t.app.getHttpServer().listeners('request')[0] as DispatchFunc;
    await t.app.close();
    const [delivery] = await (async () => {
      const fresh = await createTestApp();
      try {
        return await fresh.dataSource.query(
          `SELECT d.status, d.attempts, d.next_attempt_at AS due,
                  (SELECT COUNT(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS logged
           FROM webhook_deliveries d`,
        );
      } finally {
        await fresh.close();
      }
    })();
    // Not an attempt: the receiver did nothing wrong. It is due again, its first attempt still to make.
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0, logged: '0' });
    expect(delivery.due).toBeInstanceOf(Date);

    // A request that reaches the closed app is refused in the envelope, not by Fastify's own 503 body.
    const refused = await inject(handler, { method: 'GET', url: '/health/live' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers.connection).toBe('close');
    expect(refused.json().errors[0]).toMatchObject({
      label: 'service_unavailable',
      title: 'Service Unavailable',
    });
  });
});
