import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { envelope, expectError, flat, partnerToken } from './support/http';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

/**
 * Changes made through one process count at once in another, even one that keeps resolved keys for ten
 * minutes: the check-in query reads the gym, its plans, its key version and its subscription every time.
 */
describe('check-ins see changes made by another process at once (e2e)', () => {
  let t: TestApp;
  let other: ServiceProcess;
  let otherUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    const port = await freePort();
    other = new ServiceProcess({ PORT: String(port), KEY_CACHE_TTL_MS: '600000' });
    otherUrl = `http://127.0.0.1:${port}`;
    await other.waitUntilListening();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(async () => {
    await other.stop();
    await t.close();
  });

  const admin = (method: 'post' | 'patch' | 'delete', path: string) =>
    request(t.http)[method](path).set('Authorization', `Bearer ${t.config.adminApiToken}`);

  async function visits(): Promise<number> {
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM visits');
    return Number(n);
  }

  /** A gym and a beneficiary whose key the other process has already resolved and cached. */
  async function cachedGym() {
    const gym = await createGym(t);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const validate = (key = gym.placeApiKey) =>
      request(otherUrl)
        .post('/v1/track_usages/validate')
        .set('x-api-key', key)
        .send(flat({ identifier: member.cpf }));
    const register = (key = gym.placeApiKey) =>
      request(otherUrl)
        .post('/v1/track_usages')
        .set('x-api-key', key)
        .send(envelope({ identifier: member.cpf }));
    await validate().expect(204);
    return { ...gym, member, validate, register };
  }

  it('a gym delisted and listed again', async () => {
    const g = await cachedGym();
    await admin('patch', `/admin/places/${g.place.id}`).send({ active: false }).expect(200);
    expectError(await g.validate(), 422, 'gym_inactive');
    expectError(await g.register(), 422, 'gym_inactive');
    expect(await visits()).toBe(0);
    await admin('patch', `/admin/places/${g.place.id}`).send({ active: true }).expect(200);
    await g.validate().expect(204);
  });

  it('a plan added, then deleted', async () => {
    const g = await cachedGym();
    const added = await admin('post', `/admin/places/${g.place.id}/plans`)
      .send({ name: 'Natação', tier: 1 })
      .expect(201);
    expectError(await g.validate(), 422, 'gym_with_more_than_one_plan');
    await admin('delete', `/admin/places/${g.place.id}/plans/${added.body.code}`).expect(200);
    await g.validate().expect(204);
  });

  it('a rotated key: the old one is refused, nothing is recorded, the new one works', async () => {
    const g = await cachedGym();
    const rotated = await admin('post', `/admin/places/${g.place.id}/api-key`).expect(201);
    expectError(await g.validate(), 401, 'invalid_api_key', 'Unauthorized');
    expectError(await g.register(), 401, 'invalid_api_key', 'Unauthorized');
    expectError(await g.register(), 401, 'invalid_api_key', 'Unauthorized');
    expect(await visits()).toBe(0);
    await g.register(rotated.body.place_api_key).expect(204);
    expect(await visits()).toBe(1);
  });

  it('a rotated key on the code lookup and the app validation: the old one is refused, the new one works', async () => {
    const g = await cachedGym();
    const code = (key: string) =>
      request(otherUrl)
        .post('/v1/track_usages/beneficiaries/code')
        .set('x-api-key', key)
        .send({ type: 'cpf', identifier: g.member.cpf });
    const app = (key: string) =>
      request(otherUrl)
        .post('/partner_app/v1/validate')
        .set('x-api-key', key)
        .send({ employee_document_number: g.member.cpf });
    await code(g.placeApiKey).expect(200);
    await app(g.placeApiKey).expect(200);
    const rotated = await admin('post', `/admin/places/${g.place.id}/api-key`).expect(201);
    expectError(await code(g.placeApiKey), 401, 'invalid_api_key', 'Unauthorized');
    expectError(await app(g.placeApiKey), 401, 'invalid_api_key', 'Unauthorized');
    // A CPF that cannot exist still meets the key check first.
    expectError(
      await request(otherUrl)
        .post('/partner_app/v1/validate')
        .set('x-api-key', g.placeApiKey)
        .send({ employee_document_number: '11111111111' }),
      401,
      'invalid_api_key',
      'Unauthorized',
    );
    expect((await code(rotated.body.place_api_key).expect(200)).body.code).toBe(g.member.code);
    await app(rotated.body.place_api_key).expect(200);
  });

  it('a webhook subscription: the next visit there writes its event', async () => {
    const g = await cachedGym();
    await g.register().expect(204);
    const token = await partnerToken(t.http, g);
    await request(t.http)
      .post('/partner/webhook/create')
      .set('Authorization', `Bearer ${token}`)
      .send({ webhook_url: 'http://127.0.0.1:9/hook', webhook_type: 'CHECKIN' })
      .expect(201);
    const second = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    await request(otherUrl)
      .post('/v1/track_usages')
      .set('x-api-key', g.placeApiKey)
      .send(envelope({ identifier: second.cpf }))
      .expect(204);
    const events: { type: string; payload: string }[] = await t.dataSource.query(
      'SELECT event_type AS type, payload FROM webhook_deliveries',
    );
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].payload).user.document_number).toBe(second.cpf);
  });
});
