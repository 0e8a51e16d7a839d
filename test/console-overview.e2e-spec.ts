import request from 'supertest';
import { CheckInTally } from '../src/modules/overview/check-in-tally';
import { createAccount } from './factories/accounts.factory';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createMemberCheckIn, confirmationPath } from './factories/member-check-ins.factory';
import { createGym, createPlace, createPlan } from './factories/partners.factory';
import { asSession, signIn } from './support/console';
import { envelope, expectError, flat } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

interface Bucket {
  start: string;
  recorded: number;
  eligible: number;
  refused: number;
  refusals: Record<string, number>;
}

describe('the console overview (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2,0.2,0.2,0.2',
      WEBHOOK_BREAKER_FAILURES: '2',
      WEBHOOK_BREAKER_OPEN_SECONDS: '1',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
    });
    receiver = await new WebhookReceiver().start();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    receiver.reset();
    t.clock.reset();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const admin = (path: string) =>
    request(t.http).get(path).set('Authorization', `Bearer ${t.config.adminApiToken}`).expect(200);
  const flush = () => t.app.get(CheckInTally).flush();

  async function world() {
    const paulista = await createGym(t, { name: 'Paulista' });
    const { place: centro, placeApiKey: centroKey } = await createPlace(t, paulista.partner, {
      name: 'Centro',
    });
    await createPlan(t.dataSource, centro);
    const other = await createGym(t, { name: 'Outra Rede' });
    const plan = await createBenefitPlan(t.dataSource, { monthlyVisitLimit: null });
    const ana = await createBeneficiary(t.dataSource, plan, { name: 'Ana' });
    const bia = await createBeneficiary(t.dataSource, plan, { name: 'Bia' });
    const caio = await createBeneficiary(t.dataSource, plan, { name: 'Caio' });
    const call = (key: string, path: string, body: object) =>
      request(t.http).post(path).set('x-api-key', key).send(body);
    return { paulista, centro, centroKey, other, ana, bia, caio, call };
  }

  it('counts every check-in answer in the hour of its place: visits recorded, eligible validations, refusals by label', async () => {
    const w = await world();
    const key = w.paulista.placeApiKey;
    await w.call(key, '/v1/track_usages/validate', flat({ identifier: w.ana.cpf })).expect(204);
    await w.call(key, '/v1/track_usages', envelope({ identifier: w.ana.cpf })).expect(204);
    await w.call(key, '/v1/track_usages', envelope({ identifier: w.ana.cpf })).expect(422);
    await w.call(key, '/v1/track_usages/validate', flat({ identifier: '11144477735' })).expect(422);
    await w.call(w.centroKey, '/v1/track_usages', envelope({ identifier: w.bia.cpf })).expect(204);
    await w.call(w.other.placeApiKey, '/v1/track_usages', envelope({ identifier: w.caio.cpf })).expect(204);
    await request(t.http).post('/v1/track_usages').set('x-api-key', 'plk_unknown').send({}).expect(401);
    await flush();

    const all = (await admin('/admin/overview')).body;
    expect(all.check_ins.last_24_hours).toMatchObject({
      recorded: 3,
      eligible: 1,
      refused: 3,
      refusals: { already_used: 1, not_exists: 1, invalid_api_key: 1 },
    });
    const lastHour: Bucket = all.check_ins.hourly[23];
    expect(lastHour).toMatchObject({ recorded: 3, refused: 3 });
    expect(all.check_ins.hourly).toHaveLength(24);
    expect(all.check_ins.daily).toHaveLength(30);
    expect(all.check_ins.daily[29]).toMatchObject({ recorded: 3, eligible: 1, refused: 3 });
    expect(all.check_ins.visits_today).toBe(3);
    expect(all.places).toBeNull();

    // One place: the key's own answers only; the unknown key's refusal belongs to no place.
    const one = (await admin(`/admin/overview?place_id=${w.paulista.place.id}`)).body;
    expect(one.check_ins.last_24_hours).toMatchObject({
      recorded: 1,
      eligible: 1,
      refused: 2,
      refusals: { already_used: 1, not_exists: 1 },
    });
    expect(one.places).toEqual([
      {
        id: w.paulista.place.id,
        name: 'Paulista',
        code: w.paulista.place.code,
        active: true,
        visits_today: 1,
        webhook: null,
      },
    ]);

    // A chain account sees its two places, not the other chain's.
    const chain = await signIn(
      t.http,
      await createAccount(t, { role: 'gym', partnerId: w.paulista.partner.id }),
    );
    const mine = (await asSession(t.http, chain, 'get', '/admin/overview').expect(200)).body;
    expect(mine.check_ins.last_24_hours).toMatchObject({ recorded: 2, eligible: 1, refused: 2 });
    expect(mine.check_ins.visits_today).toBe(2);
    expect(
      mine.places.map((place: { name: string; visits_today: number }) => [place.name, place.visits_today]),
    ).toEqual([
      ['Centro', 1],
      ['Paulista', 1],
    ]);
    expectError(
      await asSession(t.http, chain, 'get', `/admin/overview?place_id=${w.other.place.id}`),
      404,
      'not_found',
      'Not Found',
    );
    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    await asSession(t.http, support, 'get', '/admin/overview').expect(200);
  });

  it('adds the counts of every flush, and counts a confirmation at its endpoint at the check-in’s place', async () => {
    const w = await world();
    await request(t.http)
      .post('/admin/places/' + w.paulista.place.id + '/webhooks')
      .set('Authorization', `Bearer ${t.config.adminApiToken}`)
      .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' })
      .expect(201);
    const checkIn = await createMemberCheckIn(t, {
      identifier: w.ana.cpf,
      service_provider_code: w.paulista.place.code,
    });
    const path = await confirmationPath(t, checkIn.id);
    await request(t.http).post(path).expect(200);
    await flush();
    await request(t.http).post(path).expect(422);
    await request(t.http).post('/api/v1/webhook_confirmations/not-a-token').expect(404);
    await flush();
    const one = (await admin(`/admin/overview?place_id=${w.paulista.place.id}`)).body;
    expect(one.check_ins.last_24_hours).toMatchObject({
      recorded: 1,
      refused: 1,
      refusals: { check_in_not_available: 1 },
    });
    const all = (await admin('/admin/overview')).body;
    expect(all.check_ins.last_24_hours.refusals).toEqual({ check_in_not_available: 1, not_found: 1 });
    expect(all.member_check_ins).toEqual({ pending: 0, expired: 0, validated: 1, cancelled: 0 });
  });

  it('puts the hours of the last 30 days in their business day, and none older', async () => {
    const w = await world();
    t.clock.set('2026-11-01T12:00:00Z');
    await w
      .call(w.paulista.placeApiKey, '/v1/track_usages/validate', flat({ identifier: w.ana.cpf }))
      .expect(204);
    t.clock.set('2026-11-21T02:30:00Z'); // 23:30 on the 20th in São Paulo
    await w
      .call(w.paulista.placeApiKey, '/v1/track_usages/validate', flat({ identifier: w.ana.cpf }))
      .expect(204);
    await flush();
    t.clock.set('2026-12-01T12:00:00Z');
    const daily: Bucket[] = (await admin('/admin/overview')).body.check_ins.daily;
    expect(daily[0].start).toBe('2026-11-02T00:00:00.000-03:00');
    expect(daily.filter((day) => day.eligible > 0)).toEqual([
      { start: '2026-11-20T00:00:00.000-03:00', recorded: 0, eligible: 1, refused: 0, refusals: {} },
    ]);
  });

  it('lists an endpoint that keeps failing: since its first failed attempt, with its deliveries waiting', async () => {
    const w = await world();
    receiver.respond((_request, _index, res) => res.writeHead(503).end('{"error":"maintenance"}'));
    const base = `/admin/places/${w.paulista.place.id}/webhooks`;
    await request(t.http)
      .post(base)
      .set('Authorization', `Bearer ${t.config.adminApiToken}`)
      .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' })
      .expect(201);
    await w.call(w.paulista.placeApiKey, '/v1/track_usages', envelope({ identifier: w.ana.cpf })).expect(204);
    await eventually(async () => receiver.received.length >= 2, 15_000, 'two failed attempts');
    interface Endpoint {
      delivery_state: { failing_since: string | null };
      [field: string]: unknown;
    }
    let overview: { endpoints: Endpoint[]; deliveries: Record<string, unknown> } = {
      endpoints: [],
      deliveries: {},
    };
    await eventually(
      async () => {
        overview = (await admin('/admin/overview')).body;
        return overview.endpoints.length === 1 && overview.endpoints[0].delivery_state.failing_since !== null;
      },
      15_000,
      'the endpoint listed as failing',
    );
    const [{ first }] = await t.dataSource.query('SELECT MIN(created_at) AS first FROM webhook_attempts');
    const [endpoint] = overview.endpoints;
    expect(endpoint).toMatchObject({
      place_id: w.paulista.place.id,
      place_name: 'Paulista',
      url: receiver.url(),
      active: true,
      deliveries: 1,
      failed: 0,
      retrying: 1,
      failure_rate: 1,
      delivery_state: {
        consecutive_failures: expect.any(Number),
        last_error: expect.stringContaining('503'),
      },
    });
    expect(new Date(endpoint.delivery_state.failing_since as string).getTime()).toBe(
      new Date(first).getTime(),
    );
    expect(overview.deliveries).toMatchObject({
      created: 1,
      delivered: 0,
      failed: 0,
      waiting: 1,
      retrying: 1,
    });
    expect(overview.deliveries.oldest_waiting_seconds).toEqual(expect.any(Number));
    const listed = (await admin(base)).body.webhooks[0].delivery_state;
    expect(new Date(listed.failing_since).getTime()).toBe(new Date(first).getTime());

    // The receiver answers again: the endpoint leaves the list and its webhook is healthy.
    receiver.respond((_request, _index, res) => res.writeHead(200).end('ok'));
    await eventually(
      async () => (await admin('/admin/overview')).body.endpoints.length === 0,
      20_000,
      'the endpoint healthy again',
    );
    const healthy = (await admin(`/admin/overview?place_id=${w.paulista.place.id}`)).body;
    expect(healthy.deliveries).toMatchObject({ delivered: 1, waiting: 0, oldest_waiting_since: null });
    expect(healthy.places[0].webhook.delivery_state).toMatchObject({
      state: 'closed',
      consecutive_failures: 0,
      failing_since: null,
    });
    expect((await admin(base)).body.webhooks[0].delivery_state.failing_since).toBeNull();
  });
});
