import request from 'supertest';
import { KeyVault } from '../src/common/crypto/key-vault';
import { createAccount } from './factories/accounts.factory';
import { createGym } from './factories/partners.factory';
import { asSession, signIn } from './support/console';
import { expectError, partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

interface Entry {
  action: string;
  actor_type: string;
  actor_id: string | null;
  actor_label: string;
  target_type: string | null;
  target_id: string | null;
  address: string | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

describe('audit log (e2e)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
    admin = `Bearer ${t.config.adminApiToken}`;
  });
  beforeEach(async () => {
    t.clock.reset();
    await truncateAll(t.dataSource);
  });
  afterAll(() => t.close());

  const asAdmin = (method: 'get' | 'post' | 'patch' | 'delete', path: string, requestId?: string) => {
    const call = request(t.http)[method](path).set('Authorization', admin);
    return requestId ? call.set('X-Request-Id', requestId) : call;
  };
  const audit = async (
    query = '',
  ): Promise<{ data: Entry[]; total: number; page: number; page_size: number }> =>
    (await asAdmin('get', `/admin/audit${query}`).expect(200)).body;
  const actions = async (query = '') => (await audit(query)).data.map((entry) => entry.action).reverse();

  it('records every change with who made it, the target, the address and the request id', async () => {
    const partner = (
      await asAdmin('post', '/admin/partners', 'req-partner').send({ name: 'Acme' }).expect(201)
    ).body;
    const place = (
      await asAdmin('post', '/admin/places').send({ partner_id: partner.id, name: 'Paulista' }).expect(201)
    ).body;
    await asAdmin('patch', `/admin/places/${place.id}`).send({ name: 'Paulista 24h' }).expect(200);
    await asAdmin('post', `/admin/places/${place.id}/api-key`).expect(201);
    await asAdmin('post', `/admin/partners/${partner.id}/api-key`).expect(201);
    const plan = (
      await asAdmin('post', `/admin/places/${place.id}/plans`).send({ name: 'Basic', tier: 1 }).expect(201)
    ).body;
    await asAdmin('delete', `/admin/places/${place.id}/plans/${plan.code}`).expect(200);
    await asAdmin('post', '/admin/benefit-plans')
      .send({ code: 'GOLD', name: 'Gold', tier: 3, monthly_visit_limit: null })
      .expect(201);
    await asAdmin('patch', '/admin/benefit-plans/GOLD').send({ monthly_visit_limit: 10 }).expect(200);
    const beneficiary = (
      await asAdmin('post', '/admin/beneficiaries')
        .send({ cpf: '11144477735', name: 'Joana', benefit_plan_code: 'GOLD' })
        .expect(201)
    ).body;
    await asAdmin('patch', '/admin/beneficiaries/111.444.777-35')
      .send({ active: false, email: 'j@example.com' })
      .expect(200);
    await asAdmin('post', '/admin/beneficiaries/bulk')
      .send({
        beneficiaries: [{ cpf: '52998224725', name: 'Pedro', benefit_plan_code: 'GOLD' }, { cpf: 'x' }],
      })
      .expect(200);
    const invited = (
      await asAdmin('post', '/admin/accounts')
        .send({ email: 'gym@acme.example', name: 'Gym', role: 'gym', partner_id: partner.id })
        .expect(201)
    ).body;
    await asAdmin('post', `/admin/accounts/${invited.account.id}/password-link`).expect(201);
    await asAdmin('patch', `/admin/accounts/${invited.account.id}`).send({ name: 'Gym Staff' }).expect(200);

    expect(await actions()).toEqual([
      'partner.create',
      'place.create',
      'place.update',
      'place.key.rotate',
      'partner.key.rotate',
      'plan.create',
      'plan.delete',
      'benefit_plan.create',
      'benefit_plan.update',
      'beneficiary.create',
      'beneficiary.update',
      'beneficiary.bulk_import',
      'account.invite',
      'account.password_link',
      'account.update',
    ]);
    const entries = (await audit()).data;
    for (const entry of entries) {
      expect(entry).toMatchObject({ actor_type: 'admin-token', actor_id: null, actor_label: 'admin-token' });
      expect(entry.address).toMatch(/127\.0\.0\.1/);
      expect(entry.request_id).toEqual(expect.any(String));
    }
    const byAction = (action: string) => entries.find((entry) => entry.action === action) as Entry;
    expect(byAction('partner.create')).toMatchObject({
      target_type: 'partner',
      target_id: String(partner.id),
      request_id: 'req-partner',
      details: { name: 'Acme' },
    });
    expect(byAction('place.update')).toMatchObject({
      target_id: place.id,
      details: { name: 'Paulista 24h' },
    });
    expect(byAction('beneficiary.update')).toMatchObject({
      target_type: 'beneficiary',
      target_id: beneficiary.code,
      details: { fields: ['email', 'active'], active: false },
    });
    expect(byAction('beneficiary.bulk_import').details).toEqual({
      rows: 2,
      created: 1,
      updated: 0,
      refused: 1,
    });
    expect(byAction('account.invite').details).toEqual({
      email: 'gym@acme.example',
      role: 'gym',
      partner_id: partner.id,
      place_ids: [],
    });
    // No key, secret or CPF is ever written into the log.
    const raw = JSON.stringify(entries);
    expect(raw).not.toMatch(/plk_|ptk_|whsec_/);
    expect(raw).not.toContain('11144477735');
  });

  it('names the account of a session, and the place of a bearer token for webhook changes', async () => {
    const gym = await createGym(t);
    const account = await createAccount(t, {
      role: 'gym',
      partnerId: gym.partner.id,
      email: 'ana@acme.example',
    });
    const session = await signIn(t.http, account);
    await asSession(t.http, session, 'post', `/admin/places/${gym.place.id}/keys/reveal`).expect(200);
    await asSession(t.http, session, 'post', `/admin/places/${gym.place.id}/api-key`).expect(201);
    await asSession(t.http, session, 'delete', '/account/session').expect(204);

    const { placeApiKey } = await request(t.http)
      .post(`/admin/places/${gym.place.id}/keys/reveal`)
      .set('Authorization', admin)
      .expect(200)
      .then((res) => ({ placeApiKey: res.body.place_api_key as string }));
    const token = await partnerToken(t.http, { placeApiKey, partnerApiKey: gym.partnerApiKey });
    await request(t.http)
      .post('/partner/webhook/create')
      .set('Authorization', `Bearer ${token}`)
      .send({ webhook_url: 'https://erp.example.com/hooks', webhook_type: 'CHECKIN' })
      .expect(201);
    await request(t.http)
      .put('/partner/webhook/update')
      .set('Authorization', `Bearer ${token}`)
      .send({ webhook_url: 'https://erp.example.com/v2', webhook_type: 'CHECKIN' })
      .expect(200);
    await request(t.http)
      .delete('/partner/webhook/delete/CHECKIN')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);

    const mine = (await audit(`?actor=${account.id}`)).data.reverse();
    expect(mine.map((entry) => entry.action)).toEqual([
      'session.login',
      'key.reveal',
      'place.key.rotate',
      'session.logout',
    ]);
    for (const entry of mine)
      expect(entry).toMatchObject({
        actor_type: 'account',
        actor_id: String(account.id),
        actor_label: 'ana@acme.example',
      });
    expect(mine[1]).toMatchObject({
      target_type: 'place',
      target_id: gym.place.id,
      details: { place_api_key: true, partner_api_key: true },
    });
    expect((await audit('?actor=ana@acme.example')).total).toBe(4);

    const byPlace = (await audit(`?actor=${gym.place.id}`)).data.reverse();
    expect(byPlace.map((entry) => [entry.action, entry.actor_type, entry.actor_label])).toEqual([
      ['webhook.create', 'place', gym.place.name],
      ['webhook.update', 'place', gym.place.name],
      ['webhook.delete', 'place', gym.place.name],
    ]);
    expect(byPlace[1].details).toEqual({
      place_id: gym.place.id,
      type: 'CHECKIN',
      url: 'https://erp.example.com/v2',
    });
    expect((await audit('?actor=place')).total).toBe(3);
  });

  it('filters by action (or its start), target, time, and pages newest first', async () => {
    t.clock.set('2026-11-10T12:00:00Z');
    const partner = (await asAdmin('post', '/admin/partners').send({ name: 'A' }).expect(201)).body;
    t.clock.set('2026-11-20T12:00:00Z');
    const place = (
      await asAdmin('post', '/admin/places').send({ partner_id: partner.id, name: 'P' }).expect(201)
    ).body;
    await asAdmin('post', `/admin/places/${place.id}/api-key`).expect(201);
    expect(await actions('?action=place')).toEqual(['place.create', 'place.key.rotate']);
    expect(await actions('?action=place.key.rotate')).toEqual(['place.key.rotate']);
    expect(await actions('?action=plac')).toEqual([]);
    expect(await actions(`?target_type=partner&target_id=${partner.id}`)).toEqual(['partner.create']);
    expect(await actions('?from=2026-11-15')).toEqual(['place.create', 'place.key.rotate']);
    expect(await actions('?to=2026-11-15')).toEqual(['partner.create']);
    const page = await audit('?page_size=2');
    expect(page).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(page.data.map((entry) => entry.action)).toEqual(['place.key.rotate', 'place.create']);
    expect((await audit('?page_size=2&page=2')).data.map((entry) => entry.action)).toEqual([
      'partner.create',
    ]);
    expect((await audit()).data[2]).toMatchObject({ at: '2026-11-10T09:00:00.000-03:00' });
    expectError(await asAdmin('get', '/admin/audit?from=soon'), 422, 'invalid_parameter');
    expectError(await asAdmin('get', '/admin/audit?page_size=500'), 422, 'invalid_parameter');
  });

  it('is written in the change’s own transaction: without its entry the change does not happen', async () => {
    const gym = await createGym(t, { name: 'Before' });
    const token = await partnerToken(t.http, gym);
    await t.dataSource.query('RENAME TABLE audit_entries TO audit_entries_away');
    try {
      expectError(
        await asAdmin('patch', `/admin/places/${gym.place.id}`).send({ name: 'After' }),
        500,
        'internal_error',
        'Internal Server Error',
      );
      expectError(
        await asAdmin('post', `/admin/places/${gym.place.id}/api-key`),
        500,
        'internal_error',
        'Internal Server Error',
      );
      expectError(
        await request(t.http)
          .post('/partner/webhook/create')
          .set('Authorization', `Bearer ${token}`)
          .send({ webhook_url: 'https://erp.example.com/hooks', webhook_type: 'CHECKIN' }),
        500,
        'internal_error',
        'Internal Server Error',
      );
    } finally {
      await t.dataSource.query('RENAME TABLE audit_entries_away TO audit_entries');
    }
    const [place] = await t.dataSource.query(
      'SELECT name, api_key_ciphertext AS sealed, check_in_webhook AS webhook FROM places WHERE id = ?',
      [gym.place.id],
    );
    expect({ ...place, sealed: t.app.get(KeyVault).open(place.sealed) }).toEqual({
      name: 'Before',
      sealed: gym.placeApiKey,
      webhook: 0,
    });
    const [{ subscriptions }] = await t.dataSource.query(
      'SELECT COUNT(*) AS subscriptions FROM webhook_subscriptions',
    );
    expect(Number(subscriptions)).toBe(0);
    // And a refused change writes no entry.
    expectError(
      await asAdmin('patch', `/admin/places/${gym.place.id}`).send({ name: '' }),
      422,
      'invalid_parameter',
    );
    expect((await audit()).total).toBe(0);
  });

  it('is for operators only', async () => {
    for (const role of ['support', 'gym'] as const) {
      const gym = role === 'gym' ? await createGym(t) : undefined;
      const session = await signIn(
        t.http,
        await createAccount(t, { role, partnerId: gym?.partner.id ?? null }),
      );
      expectError(await asSession(t.http, session, 'get', '/admin/audit'), 403, 'forbidden', 'Forbidden');
    }
    const operator = await signIn(t.http, await createAccount(t, { role: 'operator' }));
    await asSession(t.http, operator, 'get', '/admin/audit').expect(200);
  });
});
