import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { v7 as timeOrderedUuid } from 'uuid';
import { createAccount } from './factories/accounts.factory';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createMemberCheckIn } from './factories/member-check-ins.factory';
import { createGym, createPlace } from './factories/partners.factory';
import { asSession, ConsoleSession, signIn } from './support/console';
import { envelope, expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

/** The lines of a CSV answer, without the byte-order mark and the final line break. */
function csvLinesOf(res: request.Response): string[] {
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[a-z]+\.csv"$/);
  const text = String(res.body);
  expect(text.startsWith('\uFEFF')).toBe(true);
  return text.slice(1).replace(/\r\n$/, '').split('\r\n');
}

describe('console reads: beneficiary page, failing deliveries, partner names, audit names, CSV exports (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    t.clock.reset();
  });
  afterAll(() => t.close());

  const admin = (method: 'get' | 'post' | 'patch', path: string) =>
    request(t.http)[method](path).set('Authorization', `Bearer ${t.config.adminApiToken}`);
  const as = (session: ConsoleSession, method: 'get' | 'patch', path: string) =>
    asSession(t.http, session, method, path);
  // Buffers the CSV body as text whatever its content type.
  const text = (call: request.Test) =>
    call.buffer(true).parse((res, done) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done(null, body));
    });

  /** A delivery as the outbox and the sender leave it, written directly: `state` picks its story. */
  async function delivery(
    placeId: string,
    subscriptionId: string,
    state: 'delivered' | 'failed' | 'retrying' | 'first' | 'redelivering',
    createdAt: Date,
  ): Promise<string> {
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    // Time-ordered, as the outbox makes them.
    const id = `dlv_${timeOrderedUuid().replace(/-/g, '')}`;
    const stories: Record<typeof state, [status: string, attempts: number, code: number | null]> = {
      delivered: ['delivered', 1, 200],
      failed: ['failed', 8, 503],
      retrying: ['pending', 2, 503],
      first: ['pending', 0, null],
      redelivering: ['pending', 1, 200],
    };
    const [status, attempts, code] = stories[state];
    await t.dataSource.query(
      `INSERT INTO webhook_deliveries (id, event_id, event_type, payload, subscription_id, place_id, url, status,
         attempts, last_status_code, last_attempt_at, next_attempt_at, created_at)
       VALUES (?, ?, 'CHECK_IN_CREATED', '{}', ?, ?, 'https://erp.example.com/hooks', ?, ?, ?, ?, ?, ?)`,
      [
        id,
        eventId,
        subscriptionId,
        placeId,
        status,
        attempts,
        code,
        attempts > 0 ? createdAt : null,
        status === 'pending' ? new Date('2100-01-01T00:00:00Z') : null,
        createdAt,
      ],
    );
    return id;
  }

  it('filters deliveries to the failing ones: failed, or waiting for a retry after a failed attempt', async () => {
    const gym = await createGym(t, { name: 'Paulista' });
    const subscription = randomUUID();
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 22, 10, minutes));
    const failed = await delivery(gym.place.id, subscription, 'failed', at(1));
    const retrying = await delivery(gym.place.id, subscription, 'retrying', at(2));
    await delivery(gym.place.id, subscription, 'delivered', at(3));
    await delivery(gym.place.id, subscription, 'first', at(4));
    await delivery(gym.place.id, subscription, 'redelivering', at(5));
    const ids = (res: request.Response) => res.body.data.map((row: { id: string }) => row.id);
    expect(ids(await admin('get', '/admin/deliveries?failing=true').expect(200))).toEqual([failed, retrying]);
    expect((await admin('get', '/admin/deliveries?failing=false').expect(200)).body.total).toBe(5);
    expect(ids(await admin('get', '/admin/deliveries?failing=true&status=pending').expect(200))).toEqual([
      retrying,
    ]);
    expectError(await admin('get', '/admin/deliveries?failing=yes'), 422, 'invalid_parameter');

    const lines = csvLinesOf(await text(admin('get', '/admin/deliveries/export?failing=true')).expect(200));
    expect(lines[0]).toBe(
      'id,created_at,place_id,place_name,event_id,event_type,url,status,attempts,last_status_code,last_error,' +
        'last_attempt_at,next_attempt_at,delivered_at',
    );
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([retrying, failed]);
    expect(lines[1]).toContain(',Paulista,');
  });

  it('exports the deliveries of a gym account’s places only', async () => {
    const ours = await createGym(t, { name: 'Nossa' });
    const theirs = await createGym(t, { name: 'Deles' });
    const mine = await delivery(ours.place.id, randomUUID(), 'failed', new Date());
    await delivery(theirs.place.id, randomUUID(), 'failed', new Date());
    const gym = await signIn(t.http, await createAccount(t, { role: 'gym', placeIds: [ours.place.id] }));
    const lines = csvLinesOf(await text(as(gym, 'get', '/admin/deliveries/export')).expect(200));
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([mine]);
  });

  it('renames a partner, audited with both names, for operators only', async () => {
    const gym = await createGym(t);
    const renamed = await admin('patch', `/admin/partners/${gym.partner.id}`)
      .send({ name: '  Acme Brasil ' })
      .expect(200);
    expect(renamed.body).toEqual({
      id: gym.partner.id,
      name: 'Acme Brasil',
      partner_api_key: gym.partnerApiKey,
    });
    expect((await admin('get', `/admin/partners/${gym.partner.id}`).expect(200)).body.name).toBe(
      'Acme Brasil',
    );
    expectError(
      await admin('patch', `/admin/partners/${gym.partner.id}`).send({ name: ' ' }),
      422,
      'invalid_parameter',
    );
    expectError(
      await admin('patch', '/admin/partners/999999').send({ name: 'X' }),
      404,
      'not_found',
      'Not Found',
    );
    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    expectError(
      await as(support, 'patch', `/admin/partners/${gym.partner.id}`).send({ name: 'X' }),
      403,
      'forbidden',
      'Forbidden',
    );
    const entry = (await admin('get', '/admin/audit?action=partner.update').expect(200)).body.data[0];
    expect(entry).toMatchObject({
      action: 'partner.update',
      target_type: 'partner',
      target_id: String(gym.partner.id),
      target_label: 'Acme Brasil',
      details: { name: 'Acme Brasil', previous_name: 'Acme Fitness' },
    });
  });

  it('names the targets, places and actors of audit entries, and exports them with the filters applied', async () => {
    const gym = await createGym(t, { name: 'Paulista' });
    const operator = await createAccount(t, { name: 'Olga Operadora' });
    const session = await signIn(t.http, operator);
    await asSession(t.http, session, 'patch', `/admin/places/${gym.place.id}`)
      .send({ name: 'Paulista 24h' })
      .expect(200);
    await asSession(t.http, session, 'post', `/admin/places/${gym.place.id}/webhooks`)
      .send({ webhook_url: 'https://erp.example.com/=cmd', webhook_type: 'CHECKIN' })
      .expect(201);
    const entries = (await admin('get', `/admin/audit?actor=${operator.id}`).expect(200)).body.data;
    const byAction = (action: string) => entries.find((entry: { action: string }) => entry.action === action);
    expect(byAction('place.update')).toMatchObject({
      target_label: 'Paulista 24h',
      place_name: 'Paulista 24h',
      actor_name: 'Olga Operadora',
    });
    expect(byAction('webhook.create')).toMatchObject({
      target_type: 'webhook',
      target_label: 'Paulista 24h',
      place_name: 'Paulista 24h',
    });
    expect(byAction('session.login')).toMatchObject({ target_label: 'Olga Operadora', place_name: null });

    const lines = csvLinesOf(
      await text(admin('get', `/admin/audit/export?actor=${operator.id}&action=webhook`)).expect(200),
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',webhook.create,webhook,');
    // The details are JSON in one quoted cell.
    expect(lines[1]).toContain('"{""place_id"":');
    expectError(await admin('get', '/admin/audit/export?from=yesterday'), 422, 'invalid_parameter');
  });

  it('shows a beneficiary by CPF or code: usage of the monthly limit, visits and member check-ins, for staff', async () => {
    const paulista = await createGym(t, { name: 'Paulista' });
    const { place: centro, placeApiKey: centroKey } = await createPlace(t, paulista.partner, {
      name: 'Centro',
    });
    const basic = await createBenefitPlan(t.dataSource, {
      code: 'BASIC',
      name: 'Básico',
      tier: 1,
      monthlyVisitLimit: 8,
    });
    const joana = await createBeneficiary(t.dataSource, basic, { name: 'Joana', code: 'JOANA001' });
    const register = (key: string) =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', key)
        .send(envelope({ identifier: joana.cpf }));
    t.clock.set('2026-10-31T12:00:00-03:00');
    await register(paulista.placeApiKey).expect(204);
    t.clock.set('2026-11-03T08:00:00-03:00');
    await register(paulista.placeApiKey).expect(204);
    t.clock.set('2026-11-05T19:00:00-03:00');
    await register(centroKey).expect(204);
    t.clock.set('2026-11-20T10:00:00-03:00');
    await createMemberCheckIn(t, { identifier: joana.cpf, service_provider_code: paulista.place.code });

    const usage = (await admin('get', '/admin/beneficiaries/joana001/usage').expect(200)).body;
    expect(usage).toEqual({
      month: '2026-11',
      visits_this_month: 2,
      monthly_visit_limit: 8,
      remaining: 6,
      benefit_plan_code: 'BASIC',
      benefit_plan_name: 'Básico',
      benefit_plan_tier: 1,
      benefit_plan_active: true,
      last_visit_at: '2026-11-05T19:00:00.000-03:00',
    });
    const visits = (await admin('get', `/admin/beneficiaries/${joana.cpf}/visits?page_size=2`).expect(200))
      .body;
    expect(visits).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(visits.data.map((visit: { place_name: string }) => visit.place_name)).toEqual([
      'Centro',
      'Paulista',
    ]);
    expect(visits.data[0]).toEqual({
      id: expect.any(String),
      place_id: centro.id,
      place_name: 'Centro',
      plan_code: null,
      created_at: '2026-11-05T19:00:00.000-03:00',
      custom_code: null,
    });
    const checkIns = (await admin('get', '/admin/beneficiaries/JOANA001/check-ins').expect(200)).body;
    expect(checkIns).toMatchObject({ total: 1 });
    expect(checkIns.data[0]).toMatchObject({
      status: 'pending',
      place_name: 'Paulista',
      place_code: paulista.place.code,
      started_at: '2026-11-20T10:00:00.000-03:00',
    });
    expect(checkIns.data[0].token).toBeUndefined();
    expect((await admin('get', '/admin/beneficiaries/JOANA001').expect(200)).body.cpf).toBe(joana.cpf);

    // Support opens it by code (its CPFs are masked); a gym account not at all; nobody by a wrong identifier.
    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    expect((await as(support, 'get', '/admin/beneficiaries/JOANA001').expect(200)).body.cpf).toMatch(
      /\*\*\*/,
    );
    await as(support, 'get', '/admin/beneficiaries/JOANA001/usage').expect(200);
    await as(support, 'get', '/admin/beneficiaries/JOANA001/check-ins').expect(200);
    const gym = await signIn(t.http, await createAccount(t, { role: 'gym', partnerId: paulista.partner.id }));
    for (const path of ['usage', 'visits', 'check-ins'])
      expectError(
        await as(gym, 'get', `/admin/beneficiaries/JOANA001/${path}`),
        403,
        'forbidden',
        'Forbidden',
      );
    for (const path of ['NOPE0000/usage', '11144477736/visits', 'x/check-ins'])
      expectError(await admin('get', `/admin/beneficiaries/${path}`), 404, 'not_found', 'Not Found');
  });

  it('exports visits and beneficiaries with the list’s filters, CPFs masked for support', async () => {
    const paulista = await createGym(t, { name: 'Paulista' });
    const other = await createGym(t, { name: 'Outra' });
    const plan = await createBenefitPlan(t.dataSource);
    const ana = await createBeneficiary(t.dataSource, plan, { name: 'Ana, "a primeira"' });
    const bia = await createBeneficiary(t.dataSource, plan, { name: '=Bia' });
    const register = (key: string, cpf: string) =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', key)
        .send(envelope({ identifier: cpf }))
        .expect(204);
    await register(paulista.placeApiKey, ana.cpf);
    await register(other.placeApiKey, bia.cpf);

    const visits = csvLinesOf(
      await text(admin('get', `/admin/visits/export?place_id=${paulista.place.id}`)).expect(200),
    );
    expect(visits[0]).toBe('id,created_at,place_id,place_name,beneficiary_code,cpf,plan_code');
    expect(visits).toHaveLength(2);
    expect(visits[1]).toContain(`,Paulista,${ana.code},${ana.cpf},`);
    expectError(await admin('get', '/admin/visits/export?to=2026-02-30'), 422, 'invalid_parameter');

    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    const masked = csvLinesOf(await text(as(support, 'get', '/admin/visits/export')).expect(200));
    expect(masked).toHaveLength(3);
    expect(masked.join('\n')).not.toContain(ana.cpf);
    expect(masked[1]).toMatch(/,\d{3}\.\*\*\*\.\*\*\*-\d{2},/);

    const all = csvLinesOf(await text(admin('get', '/admin/beneficiaries/export')).expect(200));
    expect(all).toEqual([
      'cpf,code,name,email,active,benefit_plan_code',
      `${ana.cpf},${ana.code},"Ana, ""a primeira""",maria@example.com,true,${plan.code}`,
      `${bia.cpf},${bia.code},'=Bia,maria@example.com,true,${plan.code}`,
    ]);
    const found = csvLinesOf(await text(as(support, 'get', '/admin/beneficiaries/export?q=Bia')).expect(200));
    expect(found).toHaveLength(2);
    expect(found[1]).toMatch(/^\d{3}\.\*\*\*\.\*\*\*-\d{2},/);
    const gym = await signIn(t.http, await createAccount(t, { role: 'gym', partnerId: paulista.partner.id }));
    for (const path of ['/admin/visits/export', '/admin/beneficiaries/export', '/admin/audit/export'])
      expectError(await as(gym, 'get', path), 403, 'forbidden', 'Forbidden');
  });
});
