import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createPartner, createPlace, createPlan } from './factories/partners.factory';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('console lists (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  const get = (path: string) =>
    request(t.http).get(path).set('Authorization', `Bearer ${t.config.adminApiToken}`);

  it('lists partners by name with their places count, paged and searched', async () => {
    const zeta = await createPartner(t, { name: 'Zeta Gyms' });
    const acme = await createPartner(t, { name: 'Acme Fitness' });
    await createPartner(t, { name: 'Bravo 100% Fit' });
    await createPlace(t, acme.partner);
    await createPlace(t, acme.partner);
    const page = (await get('/admin/partners?page_size=2').expect(200)).body;
    expect(page).toEqual({
      data: [
        { id: acme.partner.id, name: 'Acme Fitness', places_count: 2, created_at: expect.any(String) },
        { id: expect.any(Number), name: 'Bravo 100% Fit', places_count: 0, created_at: expect.any(String) },
      ],
      page: 1,
      page_size: 2,
      total: 3,
    });
    expect((await get('/admin/partners?page_size=2&page=2').expect(200)).body.data).toEqual([
      expect.objectContaining({ id: zeta.partner.id, places_count: 0 }),
    ]);
    expect((await get('/admin/partners?q=ZET').expect(200)).body.total).toBe(1);
    // % is a character to look for, not a wildcard.
    expect(
      (await get('/admin/partners?q=100%25').expect(200)).body.data.map((p: { name: string }) => p.name),
    ).toEqual(['Bravo 100% Fit']);
  });

  it('refuses bad paging', async () => {
    for (const query of ['page=0', 'page=x', 'page_size=0', 'page_size=201', 'page_size=-1']) {
      expect(expectError(await get(`/admin/partners?${query}`), 422, 'invalid_parameter')).toMatch(/^page/);
    }
    await get('/admin/partners?page_size=200').expect(200);
  });

  it('lists places by name with their partner and whether a webhook listens', async () => {
    const acme = await createPartner(t, { name: 'Acme' });
    const other = await createPartner(t, { name: 'Other' });
    const paulista = await createPlace(t, acme.partner, { name: 'Paulista', code: 'PAULISTA' });
    await createPlace(t, acme.partner, { name: 'Berrini', active: false });
    await createPlace(t, other.partner, { name: 'Centro' });
    await t.dataSource.query('UPDATE places SET check_in_webhook = 1 WHERE id = ?', [paulista.place.id]);
    const all = (await get('/admin/places').expect(200)).body;
    expect(all.data.map((p: { name: string }) => p.name)).toEqual(['Berrini', 'Centro', 'Paulista']);
    expect(all.data[2]).toEqual({
      id: paulista.place.id,
      partner_id: acme.partner.id,
      partner_name: 'Acme',
      name: 'Paulista',
      code: 'PAULISTA',
      gym_id: Number(paulista.place.gymId),
      active: true,
      webhook_subscribed: true,
    });
    expect(all.data[0]).toMatchObject({ active: false, webhook_subscribed: false });
    expect((await get(`/admin/places?partner_id=${other.partner.id}`).expect(200)).body.total).toBe(1);
    expect((await get('/admin/places?q=aulist').expect(200)).body.total).toBe(1);
    expect((await get('/admin/places?q=paulista').expect(200)).body.data[0].code).toBe('PAULISTA');
    expectError(await get('/admin/places?partner_id=abc'), 422, 'invalid_parameter');
  });

  it('finds beneficiaries by the start of a CPF with any punctuation, a code, or part of a name', async () => {
    const plan = await createBenefitPlan(t.dataSource, { code: 'GOLD' });
    const joana = await createBeneficiary(t.dataSource, plan, {
      cpf: '11144477735',
      name: 'Joana Lima',
      code: 'JOANA001',
    });
    await createBeneficiary(t.dataSource, null, { name: 'Pedro Alves', code: 'PEDRO002' });
    const names = async (q: string) =>
      (await get(`/admin/beneficiaries?q=${encodeURIComponent(q)}`).expect(200)).body.data.map(
        (b: { name: string }) => b.name,
      );
    expect(await names('111.444.777-35')).toEqual(['Joana Lima']);
    expect(await names('111.444')).toEqual(['Joana Lima']);
    expect(await names('joana001')).toEqual(['Joana Lima']);
    expect(await names('alve')).toEqual(['Pedro Alves']);
    expect(await names('zzz')).toEqual([]);
    const all = (await get('/admin/beneficiaries').expect(200)).body;
    expect(all.total).toBe(2);
    expect(all.data[0]).toEqual({
      cpf: joana.cpf,
      code: 'JOANA001',
      member_number: String(joana.memberNumber),
      name: 'Joana Lima',
      email: joana.email,
      active: true,
      benefit_plan_code: 'GOLD',
    });
    expect(all.data[1].benefit_plan_code).toBeNull();
  });

  it('lists the visits of every place, newest first, by place and time window', async () => {
    const acme = await createPartner(t, { name: 'Acme' });
    const paulista = await createPlace(t, acme.partner, { name: 'Paulista' });
    const centro = await createPlace(t, acme.partner, { name: 'Centro' });
    const plan = await createPlan(t.dataSource, paulista.place, { code: 'PLANPAUL' });
    await createPlan(t.dataSource, centro.place);
    const benefitPlan = await createBenefitPlan(t.dataSource);
    const checkIn = async (key: string, at: string) => {
      t.clock.set(at);
      const member = await createBeneficiary(t.dataSource, benefitPlan);
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', key)
        .send({ data: { type: 'track_usage', attributes: { type: 'cpf', identifier: member.cpf } } })
        .expect(204);
      return member;
    };
    const first = await checkIn(paulista.placeApiKey, '2026-11-02T10:00:00Z');
    await checkIn(centro.placeApiKey, '2026-11-10T10:00:00Z');
    await checkIn(paulista.placeApiKey, '2026-11-20T10:00:00Z');
    t.clock.reset();
    const all = (await get('/admin/visits').expect(200)).body;
    expect(all.total).toBe(3);
    expect(all.data.map((v: { place_name: string }) => v.place_name)).toEqual([
      'Paulista',
      'Centro',
      'Paulista',
    ]);
    expect(all.data[2]).toEqual({
      id: expect.any(String),
      place_id: paulista.place.id,
      place_name: 'Paulista',
      beneficiary_code: first.code,
      cpf: first.cpf,
      plan_code: plan.code,
      created_at: '2026-11-02T07:00:00.000-03:00',
      custom_code: null,
    });
    expect((await get(`/admin/visits?place_id=${paulista.place.id}`).expect(200)).body.total).toBe(2);
    expect((await get('/admin/visits?from=2026-11-05&to=2026-11-15').expect(200)).body.data).toEqual([
      expect.objectContaining({ place_name: 'Centro' }),
    ]);
    expectError(await get('/admin/visits?from=yesterday'), 422, 'invalid_parameter');
  });
});
