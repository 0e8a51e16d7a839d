import request from 'supertest';
import { cpfFromBase } from '../src/common/domain/cpf';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('control panel (e2e)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ KEY_CACHE_TTL_MS: '60000' });
    admin = `Bearer ${t.config.adminApiToken}`;
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  const post = (path: string, body: object = {}) =>
    request(t.http).post(path).set('Authorization', admin).send(body);
  const patch = (path: string, body: object) =>
    request(t.http).patch(path).set('Authorization', admin).send(body);
  const get = (path: string) => request(t.http).get(path).set('Authorization', admin);

  async function chain() {
    const partner = (await post('/admin/partners', { name: 'Acme Fitness' }).expect(201)).body;
    const place = (await post('/admin/places', { partner_id: partner.id, name: 'Acme Paulista' }).expect(201))
      .body;
    return { partner, place };
  }

  async function benefitPlan(code = 'GOLD', limit: number | null = null) {
    return (
      await post('/admin/benefit-plans', { code, name: code, tier: 3, monthly_visit_limit: limit }).expect(
        201,
      )
    ).body;
  }

  describe('authentication', () => {
    const place = '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61';
    it.each([
      ['POST', '/admin/partners'],
      ['GET', '/admin/partners/1'],
      ['POST', '/admin/partners/1/api-key'],
      ['POST', '/admin/places'],
      ['GET', `/admin/places/${place}`],
      ['PATCH', `/admin/places/${place}`],
      ['POST', `/admin/places/${place}/api-key`],
      ['POST', `/admin/places/${place}/plans`],
      ['DELETE', `/admin/places/${place}/plans/B0KR5QWH`],
      ['GET', `/admin/places/${place}/track-usages`],
      ['POST', '/admin/benefit-plans'],
      ['GET', '/admin/benefit-plans'],
      ['PATCH', '/admin/benefit-plans/GOLD'],
      ['POST', '/admin/beneficiaries'],
      ['POST', '/admin/beneficiaries/bulk'],
      ['GET', '/admin/beneficiaries/11144477735'],
      ['PATCH', '/admin/beneficiaries/11144477735'],
    ])('refuses %s %s without the admin token, and with a wrong one', async (method, path) => {
      const call = () => request(t.http)[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path);
      expectError(await call().send({}), 401, 'invalid_token', 'Unauthorized');
      expectError(
        await call().set('Authorization', 'Bearer nope').send({}),
        401,
        'invalid_token',
        'Unauthorized',
      );
    });

    it('refuses a place key or a partner token in place of the admin token', async () => {
      const { place } = await chain();
      expectError(
        await request(t.http).get('/admin/benefit-plans').set('x-api-key', place.place_api_key),
        401,
        'invalid_token',
        'Unauthorized',
      );
    });
  });

  describe('partners', () => {
    it('creates a partner with a key, and shows it with its places', async () => {
      const { partner, place } = await chain();
      expect(partner).toEqual({
        id: expect.any(Number),
        name: 'Acme Fitness',
        partner_api_key: expect.stringMatching(/^ptk_/),
      });
      const res = await get(`/admin/partners/${partner.id}`).expect(200);
      expect(res.body).toEqual({ ...partner, places: [place] });
    });

    it('refuses a missing name and answers 404 for an unknown partner', async () => {
      expect(expectError(await post('/admin/partners', {}), 422, 'invalid_parameter')).toContain('name');
      expect(expectError(await post('/admin/partners', { name: 7 }), 422, 'invalid_parameter')).toContain(
        'name must be a string',
      );
      expectError(await get('/admin/partners/999'), 404, 'not_found', 'Not Found');
      expectError(await get('/admin/partners/abc'), 404, 'not_found', 'Not Found');
      expectError(await post('/admin/partners/999/api-key'), 404, 'not_found', 'Not Found');
    });

    it('rotates the partner key: the old key and the tokens issued with it stop at once', async () => {
      const { partner, place } = await chain();
      const token = (
        await request(t.http)
          .post('/partner/auth')
          .send({ place_api_key: place.place_api_key, partner_api_key: partner.partner_api_key })
          .expect(201)
      ).body.token;
      const rotated = await post(`/admin/partners/${partner.id}/api-key`).expect(201);
      expect(rotated.body).toEqual({ partner_api_key: expect.stringMatching(/^ptk_/) });
      expect(rotated.body.partner_api_key).not.toBe(partner.partner_api_key);
      const old = await request(t.http)
        .post('/partner/auth')
        .send({ place_api_key: place.place_api_key, partner_api_key: partner.partner_api_key });
      expectError(old, 401, 'invalid_credentials', 'Unauthorized');
      expectError(
        await request(t.http).get('/partner/plans').set('Authorization', `Bearer ${token}`),
        401,
        'invalid_token',
        'Unauthorized',
      );
      await request(t.http)
        .post('/partner/auth')
        .send({ place_api_key: place.place_api_key, partner_api_key: rotated.body.partner_api_key })
        .expect(201);
    });
  });

  describe('places', () => {
    it('creates a place with a generated 8-character code, or the given one', async () => {
      const { partner, place } = await chain();
      expect(place).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        partner_id: partner.id,
        name: 'Acme Paulista',
        code: expect.stringMatching(/^[A-Z0-9]{8}$/),
        gym_id: expect.any(Number),
        active: true,
        place_api_key: expect.stringMatching(/^plk_/),
      });
      expect(place.gym_id).toBeGreaterThanOrEqual(100001);
      const given = await post('/admin/places', {
        partner_id: partner.id,
        name: 'Pinheiros',
        code: 'PINHEIRO',
        active: false,
      }).expect(201);
      expect(given.body).toMatchObject({ code: 'PINHEIRO', active: false });
      expect(
        expectError(
          await post('/admin/places', { partner_id: partner.id, name: 'Again', code: 'PINHEIRO' }),
          422,
          'invalid_parameter',
        ),
      ).toContain('already taken');
    });

    it('refuses bad bodies and unknown partners', async () => {
      const { partner } = await chain();
      expect(expectError(await post('/admin/places', { name: 'X' }), 422, 'invalid_parameter')).toContain(
        'partner_id',
      );
      expect(
        expectError(
          await post('/admin/places', { partner_id: partner.id, name: 'X', code: 'short' }),
          422,
          'invalid_parameter',
        ),
      ).toContain('code');
      expect(
        expectError(await post('/admin/places', { partner_id: '1', name: 'X' }), 422, 'invalid_parameter'),
      ).toContain('partner_id');
      expectError(
        await post('/admin/places', { partner_id: 999999, name: 'X' }),
        404,
        'not_found',
        'Not Found',
      );
    });

    it('renames, delists and relists a place; a delisted gym answers gym_inactive at once', async () => {
      const { place } = await chain();
      await post(`/admin/places/${place.id}/plans`, { name: 'Basic', tier: 1 }).expect(201);
      const validate = () =>
        request(t.http)
          .post('/v1/track_usages/validate')
          .set('x-api-key', place.place_api_key)
          .send({ type: 'cpf', identifier: '11144477735' });
      expectError(await validate(), 422, 'not_exists');
      const res = await patch(`/admin/places/${place.id}`, {
        name: 'Acme Paulista 24h',
        active: false,
      }).expect(200);
      expect(res.body).toEqual({ ...place, name: 'Acme Paulista 24h', active: false });
      expectError(await validate(), 422, 'gym_inactive');
      await patch(`/admin/places/${place.id}`, { active: true }).expect(200);
      expectError(await validate(), 422, 'not_exists');
      expectError(await patch(`/admin/places/${place.id}`, { active: 'no' }), 422, 'invalid_parameter');
      expect(
        expectError(await patch(`/admin/places/${place.id}`, { name: null }), 422, 'invalid_parameter'),
      ).toContain('name');
      expect(
        expectError(await patch(`/admin/places/${place.id}`, { name: '  ' }), 422, 'invalid_parameter'),
      ).toContain('name');
      expectError(await patch('/admin/places/nope', { active: true }), 404, 'not_found', 'Not Found');
      expectError(await get('/admin/places/nope'), 404, 'not_found', 'Not Found');
      expectError(await post('/admin/places/nope/api-key'), 404, 'not_found', 'Not Found');
    });

    it('rotates the place key: the old key stops at once for x-api-key, tokens and the token exchange', async () => {
      const { partner, place } = await chain();
      const token = (
        await request(t.http)
          .post('/partner/auth')
          .send({ place_api_key: place.place_api_key, partner_api_key: partner.partner_api_key })
          .expect(201)
      ).body.token;
      const body = { type: 'cpf', identifier: '11144477735' };
      // Warm the key cache so the rotation has to drop it.
      await request(t.http)
        .post('/v1/track_usages/validate')
        .set('x-api-key', place.place_api_key)
        .send(body)
        .expect(422);
      const rotated = (await post(`/admin/places/${place.id}/api-key`).expect(201)).body;
      expect(rotated).toEqual({ place_api_key: expect.stringMatching(/^plk_/) });
      expectError(
        await request(t.http)
          .post('/v1/track_usages/validate')
          .set('x-api-key', place.place_api_key)
          .send(body),
        401,
        'invalid_api_key',
        'Unauthorized',
      );
      expectError(
        await request(t.http).get('/partner/plans').set('Authorization', `Bearer ${token}`),
        401,
        'invalid_token',
        'Unauthorized',
      );
      expectError(
        await request(t.http)
          .post('/partner/auth')
          .send({ place_api_key: place.place_api_key, partner_api_key: partner.partner_api_key }),
        401,
        'invalid_credentials',
        'Unauthorized',
      );
      await request(t.http)
        .post('/v1/track_usages/validate')
        .set('x-api-key', rotated.place_api_key)
        .send(body)
        .expect(422);
      expect((await get(`/admin/places/${place.id}`).expect(200)).body.place_api_key).toBe(
        rotated.place_api_key,
      );
    });
  });

  describe('plans', () => {
    it('adds plans, shows them, and soft-deletes one', async () => {
      const { place } = await chain();
      const basic = (
        await post(`/admin/places/${place.id}/plans`, {
          name: 'Basic',
          tier: 1,
          externalReference: 'ERP-1',
        }).expect(201)
      ).body;
      expect(basic).toEqual({
        id: expect.any(Number),
        product_id: basic.id + 100000,
        name: 'Basic',
        code: expect.stringMatching(/^[A-Z0-9]{8}$/),
        tier: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        deletedAt: null,
        placeId: place.id,
        externalReference: 'ERP-1',
      });
      const premium = (
        await post(`/admin/places/${place.id}/plans`, { name: 'Premium', tier: 3, code: 'PREMIUM1' }).expect(
          201,
        )
      ).body;
      expect((await get(`/admin/places/${place.id}`).expect(200)).body.plans).toEqual([basic, premium]);

      const deleted = await request(t.http)
        .delete(`/admin/places/${place.id}/plans/${premium.code}`)
        .set('Authorization', admin)
        .expect(200);
      expect(deleted.body).toMatchObject({ code: 'PREMIUM1', deletedAt: expect.any(String) });
      expect((await get(`/admin/places/${place.id}`).expect(200)).body.plans).toEqual([basic]);
      const [row] = await t.dataSource.query('SELECT deleted_at FROM plans WHERE code = ?', ['PREMIUM1']);
      expect(row.deleted_at).toBeInstanceOf(Date);
      expectError(
        await request(t.http).delete(`/admin/places/${place.id}/plans/PREMIUM1`).set('Authorization', admin),
        404,
        'not_found',
        'Not Found',
      );
    });

    it('refuses bad plans', async () => {
      const { place } = await chain();
      expect(
        expectError(await post(`/admin/places/${place.id}/plans`, { name: 'X' }), 422, 'invalid_parameter'),
      ).toContain('tier');
      expect(
        expectError(
          await post(`/admin/places/${place.id}/plans`, { name: 'X', tier: -1 }),
          422,
          'invalid_parameter',
        ),
      ).toContain('tier');
      expect(
        expectError(
          await post(`/admin/places/${place.id}/plans`, { name: 'X', tier: 4_294_967_296 }),
          422,
          'invalid_parameter',
        ),
      ).toContain('tier');
      await post(`/admin/places/${place.id}/plans`, { name: 'X', tier: 1, code: 'DUPL1CAT' }).expect(201);
      expectError(
        await post(`/admin/places/${place.id}/plans`, { name: 'Y', tier: 1, code: 'DUPL1CAT' }),
        422,
        'invalid_parameter',
      );
      expectError(
        await post('/admin/places/nope/plans', { name: 'X', tier: 1 }),
        404,
        'not_found',
        'Not Found',
      );
      expectError(
        await request(t.http).delete('/admin/places/nope/plans/DUPL1CAT').set('Authorization', admin),
        404,
        'not_found',
        'Not Found',
      );
    });
  });

  describe('benefit plans', () => {
    it('creates, lists and changes benefit plans', async () => {
      const gold = await benefitPlan('GOLD', null);
      expect(gold).toEqual({
        code: 'GOLD',
        name: 'GOLD',
        tier: 3,
        monthly_visit_limit: null,
        meal_plan: false,
        appointment: false,
        active: true,
      });
      await post('/admin/benefit-plans', {
        code: 'basic',
        name: 'Basic',
        tier: 1,
        monthly_visit_limit: 8,
        meal_plan: true,
      }).expect(201);
      expect(
        (await get('/admin/benefit-plans').expect(200)).body.map((p: { code: string }) => p.code),
      ).toEqual(['BASIC', 'GOLD']);
      const changed = await patch('/admin/benefit-plans/basic', {
        monthly_visit_limit: 12,
        active: false,
      }).expect(200);
      expect(changed.body).toMatchObject({
        code: 'BASIC',
        monthly_visit_limit: 12,
        active: false,
        meal_plan: true,
      });
      expectError(await patch('/admin/benefit-plans/NOPE', { tier: 1 }), 404, 'not_found', 'Not Found');
    });

    it('refuses duplicates and bad fields', async () => {
      await benefitPlan('GOLD');
      expect(
        expectError(
          await post('/admin/benefit-plans', { code: 'GOLD', name: 'x', tier: 1, monthly_visit_limit: 1 }),
          422,
          'invalid_parameter',
        ),
      ).toContain('already exists');
      expect(
        expectError(
          await post('/admin/benefit-plans', { code: 'X', name: 'x', tier: 1 }),
          422,
          'invalid_parameter',
        ),
      ).toContain('monthly_visit_limit');
      const create = (body: object) =>
        post('/admin/benefit-plans', { code: 'X', name: 'x', tier: 1, monthly_visit_limit: null, ...body });
      expect(expectError(await create({ monthly_visit_limit: 'many' }), 422, 'invalid_parameter')).toContain(
        'monthly_visit_limit',
      );
      expect(expectError(await create({ monthly_visit_limit: 0 }), 422, 'invalid_parameter')).toContain(
        'monthly_visit_limit',
      );
      expect(expectError(await create({ monthly_visit_limit: 2.5 }), 422, 'invalid_parameter')).toContain(
        'monthly_visit_limit',
      );
      expect(expectError(await create({ monthly_visit_limit: 1e12 }), 422, 'invalid_parameter')).toContain(
        'monthly_visit_limit',
      );
      expect(expectError(await create({ tier: 1e12 }), 422, 'invalid_parameter')).toContain('tier');
      expect(expectError(await create({ code: 'X Y' }), 422, 'invalid_parameter')).toContain('code');
      expect(expectError(await create({ tier: '3' }), 422, 'invalid_parameter')).toContain('tier');
      expect(expectError(await create({ meal_plan: 'yes' }), 422, 'invalid_parameter')).toContain(
        'meal_plan',
      );
      expect(
        expectError(await patch('/admin/benefit-plans/GOLD', { tier: null }), 422, 'invalid_parameter'),
      ).toContain('tier');
      expect(
        expectError(
          await patch('/admin/benefit-plans/GOLD', { monthly_visit_limit: 0 }),
          422,
          'invalid_parameter',
        ),
      ).toContain('monthly_visit_limit');
      expect(
        expectError(await patch('/admin/benefit-plans/GOLD', { active: 'no' }), 422, 'invalid_parameter'),
      ).toContain('active');
      const unlimited = await patch('/admin/benefit-plans/gold', { monthly_visit_limit: null }).expect(200);
      expect(unlimited.body.monthly_visit_limit).toBeNull();
    });
  });

  describe('beneficiaries', () => {
    it('creates a beneficiary with a generated code, shows and changes it', async () => {
      await benefitPlan('GOLD');
      await benefitPlan('SILVER', 8);
      const created = await post('/admin/beneficiaries', {
        cpf: '111.444.777-35',
        name: 'Joana Lima',
        email: 'joana@example.com',
        phone: '+5511988887777',
        birthday: '1991-02-03',
        benefit_plan_code: 'GOLD',
      }).expect(201);
      expect(created.body).toEqual({
        cpf: '11144477735',
        code: expect.stringMatching(/^[A-Z0-9]{8}$/),
        member_number: expect.stringMatching(/^[1-9]\d{12}$/),
        name: 'Joana Lima',
        email: 'joana@example.com',
        phone: '+5511988887777',
        birthday: '1991-02-03',
        active: true,
        benefit_plan_code: 'GOLD',
      });
      expect((await get('/admin/beneficiaries/11144477735').expect(200)).body).toEqual(created.body);
      const changed = await patch('/admin/beneficiaries/111.444.777-35', {
        active: false,
        benefit_plan_code: 'SILVER',
        email: null,
      }).expect(200);
      expect(changed.body).toEqual({
        ...created.body,
        active: false,
        benefit_plan_code: 'SILVER',
        email: null,
      });
      expect((await get('/admin/beneficiaries/11144477735').expect(200)).body).toEqual(changed.body);
    });

    it('refuses bad CPFs, unknown benefit plans, duplicates and bad fields; 404 for unknown CPFs', async () => {
      await benefitPlan('GOLD');
      const create = (body: object) =>
        post('/admin/beneficiaries', { cpf: '11144477735', name: 'A', benefit_plan_code: 'GOLD', ...body });
      expect(expectError(await create({ cpf: '11144477736' }), 422, 'invalid_parameter')).toContain(
        'check digits',
      );
      expect(expectError(await create({ benefit_plan_code: 'NOPE' }), 422, 'invalid_parameter')).toContain(
        'NOPE',
      );
      expect(expectError(await create({ email: 'not-an-email' }), 422, 'invalid_parameter')).toContain(
        'email',
      );
      for (const birthday of ['1990-13-40', '2023-02-29', '2025-04-31'])
        expect(expectError(await create({ birthday }), 422, 'invalid_parameter')).toContain('birthday');
      expect(expectError(await create({ name: 5 }), 422, 'invalid_parameter')).toContain('name');
      await create({ code: 'JOANA001' }).expect(201);
      expect(expectError(await create({}), 422, 'invalid_parameter')).toContain('cpf');
      expect(
        expectError(await create({ cpf: '52998224725', code: 'JOANA001' }), 422, 'invalid_parameter'),
      ).toContain('already taken');
      expect(
        expectError(await create({ cpf: '111.444.777-35', name: 'Twin' }), 422, 'invalid_parameter'),
      ).toContain('cpf already belongs to a beneficiary');
      expect((await get('/admin/beneficiaries/11144477735').expect(200)).body.name).toBe('A');
      expectError(await get('/admin/beneficiaries/52998224725'), 404, 'not_found', 'Not Found');
      expectError(await get('/admin/beneficiaries/11144477736'), 404, 'not_found', 'Not Found');
      expectError(
        await patch('/admin/beneficiaries/52998224725', { active: false }),
        404,
        'not_found',
        'Not Found',
      );
      expect(
        expectError(
          await patch('/admin/beneficiaries/11144477735', { benefit_plan_code: 'NOPE' }),
          422,
          'invalid_parameter',
        ),
      ).toContain('benefit_plan_code');
      for (const field of ['name', 'active', 'benefit_plan_code']) {
        expect(
          expectError(
            await patch('/admin/beneficiaries/11144477735', { [field]: null }),
            422,
            'invalid_parameter',
          ),
        ).toContain(field);
      }
      for (const birthday of ['03/02/1991', '2026-02-30'])
        expect(
          expectError(
            await patch('/admin/beneficiaries/11144477735', { birthday }),
            422,
            'invalid_parameter',
          ),
        ).toContain('birthday');
    });
  });

  describe('bulk import', () => {
    it('imports good rows, reports bad rows by index, and upserts by CPF', async () => {
      await benefitPlan('GOLD');
      await benefitPlan('SILVER', 8);
      await post('/admin/beneficiaries', {
        cpf: '11144477735',
        name: 'Joana',
        email: 'joana@example.com',
        benefit_plan_code: 'GOLD',
      }).expect(201);
      const { code } = (await get('/admin/beneficiaries/11144477735')).body;
      const res = await post('/admin/beneficiaries/bulk', {
        beneficiaries: [
          { cpf: '111.444.777-35', name: 'Joana Lima', benefit_plan_code: 'SILVER', active: false },
          { cpf: '52998224725', name: 'Pedro', benefit_plan_code: 'GOLD', code: 'PEDRO001' },
          { cpf: '52998224726', name: 'Bad digits', benefit_plan_code: 'GOLD' },
          { cpf: cpfFromBase(123456789), name: 'Ana', benefit_plan_code: 'NOPE' },
          { cpf: cpfFromBase(123456790), benefit_plan_code: 'GOLD' },
          { cpf: cpfFromBase(123456791), name: 'Carla', benefit_plan_code: 'GOLD', code: 'PEDRO001' },
          { cpf: cpfFromBase(123456792), name: 'Dora', benefit_plan_code: 'GOLD', active: 'yes' },
          { cpf: 12345678909, name: 'Number', benefit_plan_code: 'GOLD' },
          null,
          { cpf: cpfFromBase(123456793), name: 'Eva', benefit_plan_code: 'gold', birthday: '1990-01-02' },
        ],
      }).expect(200);
      expect(res.body).toEqual({
        created: 2,
        updated: 1,
        errors: [
          { index: 2, label: 'invalid_parameter', message: expect.stringContaining('check digits') },
          { index: 3, label: 'invalid_parameter', message: expect.stringContaining('NOPE') },
          { index: 4, label: 'invalid_parameter', message: expect.stringContaining('name') },
          { index: 5, label: 'invalid_parameter', message: expect.stringContaining('code') },
          { index: 6, label: 'invalid_parameter', message: expect.stringContaining('active') },
          { index: 7, label: 'invalid_parameter', message: expect.stringContaining('cpf') },
          { index: 8, label: 'invalid_parameter', message: expect.stringContaining('object') },
        ],
      });
      expect((await get(`/admin/beneficiaries/${cpfFromBase(123456793)}`).expect(200)).body).toMatchObject({
        name: 'Eva',
        benefit_plan_code: 'GOLD',
        birthday: '1990-01-02',
        active: true,
        code: expect.stringMatching(/^[A-Z0-9]{8}$/),
      });
      expectError(await get(`/admin/beneficiaries/${cpfFromBase(123456792)}`), 404, 'not_found', 'Not Found');
      const joana = (await get('/admin/beneficiaries/11144477735').expect(200)).body;
      // Updated fields change; absent ones (email, code) keep their value.
      expect(joana).toMatchObject({
        name: 'Joana Lima',
        benefit_plan_code: 'SILVER',
        active: false,
        email: 'joana@example.com',
        code,
      });
      expect((await get('/admin/beneficiaries/52998224725').expect(200)).body).toMatchObject({
        code: 'PEDRO001',
        active: true,
      });
    });

    it('refuses a code owned by another beneficiary without touching that beneficiary', async () => {
      await benefitPlan('GOLD');
      await post('/admin/beneficiaries', {
        cpf: '11144477735',
        name: 'Joana',
        benefit_plan_code: 'GOLD',
        code: 'JOANA001',
      }).expect(201);
      const res = await post('/admin/beneficiaries/bulk', {
        beneficiaries: [
          { cpf: '52998224725', name: 'Intruder', benefit_plan_code: 'GOLD', code: 'JOANA001' },
        ],
      }).expect(200);
      expect(res.body).toEqual({
        created: 0,
        updated: 0,
        errors: [{ index: 0, label: 'invalid_parameter', message: expect.stringContaining('JOANA001') }],
      });
      expect((await get('/admin/beneficiaries/11144477735')).body.name).toBe('Joana');
    });

    it('imports 10,000 rows in one request and refuses more', async () => {
      await benefitPlan('GOLD');
      const rows = Array.from({ length: 10_000 }, (_, i) => ({
        cpf: cpfFromBase(300000000 + i),
        name: `B${i}`,
        benefit_plan_code: 'GOLD',
      }));
      const res = await post('/admin/beneficiaries/bulk', { beneficiaries: rows }).expect(200);
      expect(res.body).toEqual({ created: 10_000, updated: 0, errors: [] });
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM beneficiaries');
      expect(Number(n)).toBe(10_000);
      const again = await post('/admin/beneficiaries/bulk', { beneficiaries: rows }).expect(200);
      expect(again.body).toEqual({ created: 0, updated: 10_000, errors: [] });
      const tooMany = await post('/admin/beneficiaries/bulk', { beneficiaries: [...rows, rows[0]] });
      expect(expectError(tooMany, 422, 'invalid_parameter')).toContain('10000');
    });

    it('never lets concurrent imports that give one code to two CPFs overwrite a beneficiary', async () => {
      await benefitPlan('GOLD');
      const pairs = Array.from({ length: 15 }, (_, i) => ({
        code: `RACE${String(i).padStart(4, '0')}`,
        first: cpfFromBase(500000000 + 2 * i),
        second: cpfFromBase(500000001 + 2 * i),
      }));
      const answers = await Promise.all(
        pairs.flatMap(({ code, first, second }) => [
          post('/admin/beneficiaries/bulk', {
            beneficiaries: [{ cpf: first, name: `First ${code}`, benefit_plan_code: 'GOLD', code }],
          }),
          post('/admin/beneficiaries/bulk', {
            beneficiaries: [{ cpf: second, name: `Second ${code}`, benefit_plan_code: 'GOLD', code }],
          }),
        ]),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));
      for (const [i, { code, first, second }] of pairs.entries()) {
        const [a, b] = [answers[2 * i].body, answers[2 * i + 1].body];
        // One import wins the code; the other reports its row, and nobody is overwritten.
        expect([a.created + b.created, a.errors.length + b.errors.length]).toEqual([1, 1]);
        const rows: { cpf: string; name: string }[] = await t.dataSource.query(
          'SELECT cpf, name FROM beneficiaries WHERE code = ?',
          [code],
        );
        expect(rows).toHaveLength(1);
        expect(rows[0].name).toBe(rows[0].cpf === first ? `First ${code}` : `Second ${code}`);
        expect(rows[0].cpf === first ? a.created : b.created).toBe(1);
        const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM beneficiaries WHERE cpf IN (?)', [
          [first, second],
        ]);
        expect(Number(n)).toBe(1);
      }
    });

    it('never lets an import overwrite a beneficiary created at the same moment with the same code', async () => {
      await benefitPlan('GOLD');
      const pairs = Array.from({ length: 15 }, (_, i) => ({
        code: `SOLO${String(i).padStart(4, '0')}`,
        single: cpfFromBase(510000000 + 2 * i),
        imported: cpfFromBase(510000001 + 2 * i),
      }));
      const answers = await Promise.all(
        pairs.flatMap(({ code, single, imported }) => [
          post('/admin/beneficiaries', { cpf: single, name: 'Single', benefit_plan_code: 'GOLD', code }),
          post('/admin/beneficiaries/bulk', {
            beneficiaries: [{ cpf: imported, name: 'Imported', benefit_plan_code: 'GOLD', code }],
          }),
        ]),
      );
      for (const [i, { code, single }] of pairs.entries()) {
        const [create, bulk] = [answers[2 * i], answers[2 * i + 1]];
        expect(bulk.status).toBe(200);
        const [row]: { cpf: string; name: string }[] = await t.dataSource.query(
          'SELECT cpf, name FROM beneficiaries WHERE code = ?',
          [code],
        );
        if (row.cpf === single) {
          expect([create.status, row.name, bulk.body.created, bulk.body.errors.length]).toEqual([
            201,
            'Single',
            0,
            1,
          ]);
        } else {
          expect([create.status, row.name, bulk.body.created]).toEqual([422, 'Imported', 1]);
        }
        const [{ n }] = await t.dataSource.query(
          'SELECT COUNT(*) AS n FROM beneficiaries WHERE code LIKE ?',
          [code],
        );
        expect(Number(n)).toBe(1);
      }
    });

    it('reports a birthday that does not exist on its row, and imports the rest', async () => {
      await benefitPlan('GOLD');
      const res = await post('/admin/beneficiaries/bulk', {
        beneficiaries: [
          { cpf: cpfFromBase(520000000), name: 'Leap', benefit_plan_code: 'GOLD', birthday: '2024-02-29' },
          { cpf: cpfFromBase(520000001), name: 'Nope', benefit_plan_code: 'GOLD', birthday: '2023-02-29' },
          { cpf: cpfFromBase(520000002), name: 'April', benefit_plan_code: 'GOLD', birthday: '2025-04-31' },
        ],
      }).expect(200);
      expect(res.body).toEqual({
        created: 1,
        updated: 0,
        errors: [
          { index: 1, label: 'invalid_parameter', message: expect.stringContaining('birthday') },
          { index: 2, label: 'invalid_parameter', message: expect.stringContaining('birthday') },
        ],
      });
    });

    it('refuses a body without a beneficiaries array', async () => {
      expectError(await post('/admin/beneficiaries/bulk', {}), 422, 'invalid_parameter');
      expectError(await post('/admin/beneficiaries/bulk', { beneficiaries: 'x' }), 422, 'invalid_parameter');
    });
  });

  describe('track usages of a place', () => {
    it("lists the place's visits newest first, filtered and paged", async () => {
      const { place } = await chain();
      const plan = (await post(`/admin/places/${place.id}/plans`, { name: 'Basic', tier: 1 }).expect(201))
        .body;
      await benefitPlan('GOLD');
      await post('/admin/beneficiaries', {
        cpf: '11144477735',
        name: 'Joana',
        benefit_plan_code: 'GOLD',
      }).expect(201);
      const register = () =>
        request(t.http)
          .post('/v1/track_usages')
          .set('x-api-key', place.place_api_key)
          .send({ data: { type: 'track_usage', attributes: { type: 'cpf', identifier: '11144477735' } } })
          .expect(204);
      t.clock.set('2026-11-02T10:00:00.000Z');
      await register();
      t.clock.set('2026-11-03T10:00:00.000Z');
      await register();
      t.clock.reset();

      const all = await get(`/admin/places/${place.id}/track-usages`).expect(200);
      expect(all.body).toEqual({
        data: [
          {
            id: expect.any(String),
            beneficiary_code: expect.any(String),
            cpf: '11144477735',
            plan_code: plan.code,
            created_at: '2026-11-03T07:00:00.000-03:00',
            custom_code: null,
          },
          expect.objectContaining({ created_at: '2026-11-02T07:00:00.000-03:00' }),
        ],
        page: 1,
        page_size: 50,
        total: 2,
      });
      const filtered = await get(
        `/admin/places/${place.id}/track-usages?from=2026-11-03T00:00:00-03:00&to=2026-11-04T00:00:00-03:00`,
      ).expect(200);
      expect(filtered.body.total).toBe(1);
      const dates = (query: string) =>
        get(`/admin/places/${place.id}/track-usages?${query}`)
          .expect(200)
          .then((res) => res.body.data.map((visit: { created_at: string }) => visit.created_at.slice(0, 10)));
      // A date alone is a whole day in BUSINESS_TIMEZONE; `to` includes it.
      await expect(dates('from=2026-11-03&to=2026-11-03')).resolves.toEqual(['2026-11-03']);
      await expect(dates('to=2026-11-02')).resolves.toEqual(['2026-11-02']);
      await expect(dates('from=2026-11-04')).resolves.toEqual([]);
      expect((await get(`/admin/places/${place.id}/track-usages?page=2`).expect(200)).body).toMatchObject({
        data: [],
        page: 2,
        total: 2,
      });
      expect(
        expectError(
          await get(`/admin/places/${place.id}/track-usages?from=yesterday`),
          422,
          'invalid_parameter',
        ),
      ).toContain('from');
      expect(
        expectError(
          await get(`/admin/places/${place.id}/track-usages?to=2026-02-30`),
          422,
          'invalid_parameter',
        ),
      ).toContain('to');
      expect(
        expectError(await get(`/admin/places/${place.id}/track-usages?page=0`), 422, 'invalid_parameter'),
      ).toContain('page');
      expectError(await get('/admin/places/nope/track-usages'), 404, 'not_found', 'Not Found');
    });

    it('pages by 50 and lists only the visits of that place', async () => {
      const { partner, place } = await chain();
      const other = (await post('/admin/places', { partner_id: partner.id, name: 'Other' }).expect(201)).body;
      await benefitPlan('GOLD');
      await post('/admin/beneficiaries', {
        cpf: '11144477735',
        name: 'Joana',
        benefit_plan_code: 'GOLD',
      }).expect(201);
      const [{ id: beneficiaryId }] = await t.dataSource.query('SELECT id FROM beneficiaries');
      const visits = Array.from({ length: 55 }, (_, i) => [
        beneficiaryId,
        place.id,
        new Date(Date.UTC(2026, 10, 1, 0, i)),
      ]);
      visits.push([beneficiaryId, other.id, new Date(Date.UTC(2026, 10, 2))]);
      await t.dataSource.query('INSERT INTO visits (beneficiary_id, place_id, created_at) VALUES ?', [
        visits,
      ]);

      const first = (await get(`/admin/places/${place.id}/track-usages`).expect(200)).body;
      expect(first).toMatchObject({ page: 1, page_size: 50, total: 55 });
      expect(first.data).toHaveLength(50);
      expect(first.data[0]).toEqual({
        id: expect.any(String),
        beneficiary_code: expect.stringMatching(/^[A-Z0-9]{8}$/),
        cpf: '11144477735',
        plan_code: null,
        created_at: '2026-10-31T21:54:00.000-03:00',
        custom_code: null,
      });
      const second = (await get(`/admin/places/${place.id}/track-usages?page=2`).expect(200)).body;
      expect(second).toMatchObject({ page: 2, total: 55 });
      expect(second.data.map((visit: { created_at: string }) => visit.created_at)).toEqual([
        '2026-10-31T21:04:00.000-03:00',
        '2026-10-31T21:03:00.000-03:00',
        '2026-10-31T21:02:00.000-03:00',
        '2026-10-31T21:01:00.000-03:00',
        '2026-10-31T21:00:00.000-03:00',
      ]);
    });
  });
});
