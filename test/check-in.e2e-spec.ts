import request from 'supertest';
import { createBeneficiary, createBenefitPlan, nextCpf } from './factories/beneficiaries.factory';
import { IdempotencyPurge } from '../src/modules/check-in/idempotency-purge.service';
import { PlaceSummaryRepository } from '../src/modules/partners/place-summary.repository';
import { createGym, createPlace, createPlan, deletePlan } from './factories/partners.factory';
import { envelope, expectError, flat, withoutRequestIds } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('check-in routes (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    t.clock.reset();
  });
  afterAll(() => t.close());

  async function count(table: string): Promise<number> {
    const [{ n }] = await t.dataSource.query(`SELECT COUNT(*) AS n FROM \`${table}\``);
    return Number(n);
  }
  const visits = () => count('visits');

  /** A gym with one tier-1 plan and an eligible beneficiary (tier 3, limit 8). */
  async function scenario() {
    const gym = await createGym(t, {}, { tier: 1 });
    const benefitPlan = await createBenefitPlan(t.dataSource, { tier: 3, monthlyVisitLimit: 8 });
    const beneficiary = await createBeneficiary(t.dataSource, benefitPlan);
    const validate = (body: object, key = gym.placeApiKey) =>
      request(t.http).post('/v1/track_usages/validate').set('x-api-key', key).send(body);
    const register = (body: object, key = gym.placeApiKey) =>
      request(t.http).post('/v1/track_usages').set('x-api-key', key).send(body);
    return { ...gym, benefitPlan, beneficiary, validate, register };
  }

  describe('POST /v1/track_usages/validate', () => {
    it('answers 204 with no body for an eligible beneficiary, flat or enveloped', async () => {
      const s = await scenario();
      const fields = { identifier: s.beneficiary.cpf, service_provider_code: s.place.code };
      const res = await s.validate(flat(fields)).expect(204);
      expect(res.text).toBe('');
      await s.validate(envelope(fields)).expect(204);
    });

    it('never writes: many validates record nothing, and register still succeeds after them', async () => {
      const s = await scenario();
      const body = flat({ identifier: s.beneficiary.cpf, service_provider_code: s.place.code });
      for (let i = 0; i < 20; i++) await s.validate(body).expect(204);
      for (let i = 0; i < 5; i++) await s.validate(envelope({ identifier: s.beneficiary.cpf })).expect(204);
      expect(await visits()).toBe(0);
      expect(await count('idempotency_records')).toBe(0);
      await s.register(envelope({ identifier: s.beneficiary.cpf })).expect(204);
      expect(await visits()).toBe(1);
    });

    it('uses the gym of the key when service_provider_code is absent', async () => {
      const s = await scenario();
      await s.validate(flat({ identifier: s.beneficiary.cpf })).expect(204);
    });

    it('accepts a CPF with punctuation and a beneficiary code', async () => {
      const s = await scenario();
      const c = s.beneficiary.cpf;
      await s
        .validate(flat({ identifier: `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}` }))
        .expect(204);
      await s.validate(flat({ type: 'code', identifier: s.beneficiary.code.toLowerCase() })).expect(204);
    });
  });

  describe('POST /v1/track_usages', () => {
    it('records exactly one visit, stamped by the server, and answers 204 with no body', async () => {
      const s = await scenario();
      t.clock.set('2026-11-22T10:02:11.412Z');
      const res = await s
        .register(envelope({ identifier: s.beneficiary.cpf, service_provider_code: s.place.code }))
        .expect(204);
      expect(res.text).toBe('');
      const rows = await t.dataSource.query(
        'SELECT beneficiary_id, place_id, plan_id, created_at FROM visits',
      );
      expect(rows).toEqual([
        {
          beneficiary_id: s.beneficiary.id,
          place_id: s.place.id,
          plan_id: s.plan.id,
          created_at: new Date('2026-11-22T10:02:11.412Z'),
        },
      ]);
    });

    it('accepts an envelope without data.type and refuses a wrong data.type', async () => {
      const s = await scenario();
      await s.register({ data: { attributes: { type: 'cpf', identifier: s.beneficiary.cpf } } }).expect(204);
      const res = await s.register({
        data: { type: 'usage', attributes: { type: 'cpf', identifier: nextCpf() } },
      });
      expect(expectError(res, 422, 'invalid_parameter')).toBe('data.type must be track_usage');
      expect(await visits()).toBe(1);
    });

    it('refuses the same beneficiary again with already_used', async () => {
      const s = await scenario();
      const body = envelope({ identifier: s.beneficiary.cpf });
      await s.register(body).expect(204);
      expectError(await s.register(body), 422, 'already_used');
      expect(await visits()).toBe(1);
    });

    describe('Idempotency-Key', () => {
      it('answers a repeat like the first and records nothing', async () => {
        const s = await scenario();
        const body = envelope({ identifier: s.beneficiary.cpf });
        await s.register(body).set('Idempotency-Key', 'turnstile-1-0001').expect(204);
        await s.register(body).set('Idempotency-Key', 'turnstile-1-0001').expect(204);
        expect(await visits()).toBe(1);
        // Without the key the same request is a new check-in, refused by the rules.
        expectError(await s.register(body), 422, 'already_used');
      });

      it('tells keys apart by case: abc and ABC are two check-ins', async () => {
        const s = await scenario();
        const other = await createBeneficiary(t.dataSource, s.benefitPlan);
        await s
          .register(envelope({ identifier: s.beneficiary.cpf }))
          .set('Idempotency-Key', 'abc')
          .expect(204);
        await s
          .register(envelope({ identifier: other.cpf }))
          .set('Idempotency-Key', 'ABC')
          .expect(204);
        expect(await visits()).toBe(2);
      });

      it('purges records past their 24 hours and keeps the others', async () => {
        const s = await scenario();
        const other = await createBeneficiary(t.dataSource, s.benefitPlan);
        t.clock.set('2026-11-20T10:00:00Z');
        await s
          .register(envelope({ identifier: s.beneficiary.cpf }))
          .set('Idempotency-Key', 'day-1')
          .expect(204);
        t.clock.set('2026-11-21T10:00:01Z');
        await s
          .register(envelope({ identifier: other.cpf }))
          .set('Idempotency-Key', 'day-2')
          .expect(204);
        await expect(t.app.get(IdempotencyPurge).purge()).resolves.toBe(1);
        const keys: { key: string }[] = await t.dataSource.query(
          'SELECT idempotency_key AS `key` FROM idempotency_records',
        );
        expect(keys).toEqual([{ key: 'day-2' }]);
      });

      it('replays a refusal too', async () => {
        const s = await scenario();
        const body = envelope({ identifier: nextCpf() });
        const first = await s.register(body).set('Idempotency-Key', 'k-refused');
        expectError(first, 422, 'not_exists');
        const again = await s.register(body).set('Idempotency-Key', 'k-refused');
        expect(withoutRequestIds(again)).toEqual(withoutRequestIds(first));
      });

      it('replays the first outcome even after the facts change', async () => {
        const s = await scenario();
        const member = await createBeneficiary(t.dataSource, s.benefitPlan, { active: false });
        const body = envelope({ identifier: member.cpf });
        const first = await s.register(body).set('Idempotency-Key', 'door-7');
        expectError(first, 422, 'inactive_employee');
        await t.dataSource.query('UPDATE beneficiaries SET active = 1 WHERE id = ?', [member.id]);
        const again = await s.register(body).set('Idempotency-Key', 'door-7');
        expect({ status: again.status, body: withoutRequestIds(again) }).toEqual({
          status: 422,
          body: withoutRequestIds(first),
        });
        expect(await visits()).toBe(0);
        await s.register(body).set('Idempotency-Key', 'door-8').expect(204);
        expect(await visits()).toBe(1);
      });

      it('replays a refusal by the gym rules', async () => {
        const s = await scenario();
        await t.dataSource.query('UPDATE places SET active = 0 WHERE id = ?', [s.place.id]);
        const body = envelope({ identifier: s.beneficiary.cpf });
        const first = await s.register(body).set('Idempotency-Key', 'closed');
        expectError(first, 422, 'gym_inactive');
        await t.dataSource.query('UPDATE places SET active = 1 WHERE id = ?', [s.place.id]);
        const again = await s.register(body).set('Idempotency-Key', 'closed');
        expect({ status: again.status, body: withoutRequestIds(again) }).toEqual({
          status: 422,
          body: withoutRequestIds(first),
        });
        expect(await visits()).toBe(0);
      });

      it('answers concurrent repeats of a refused request alike', async () => {
        const s = await scenario();
        const member = await createBeneficiary(t.dataSource, s.benefitPlan, { active: false });
        const body = envelope({ identifier: member.cpf });
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => s.register(body).set('Idempotency-Key', 'burst')),
        );
        for (const answer of answers)
          expect(withoutRequestIds(answer)).toEqual(withoutRequestIds(answers[0]));
        expectError(answers[0], 422, 'inactive_employee');
        expect(await count('idempotency_records')).toBe(1);
        expect(await visits()).toBe(0);
      });

      it('records one visit for concurrent repeats of one key', async () => {
        const s = await scenario();
        const body = envelope({ identifier: s.beneficiary.cpf });
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => s.register(body).set('Idempotency-Key', 'same-key')),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(8).fill(204));
        expect(await visits()).toBe(1);
      });

      it('refuses a key reused for another request, and a key that is too long', async () => {
        const s = await scenario();
        const other = await createBeneficiary(t.dataSource, s.benefitPlan);
        await s
          .register(envelope({ identifier: s.beneficiary.cpf }))
          .set('Idempotency-Key', 'k1')
          .expect(204);
        const reused = await s.register(envelope({ identifier: other.cpf })).set('Idempotency-Key', 'k1');
        expect(expectError(reused, 422, 'invalid_parameter')).toContain('Idempotency-Key');
        expectError(
          await s.register(envelope({ identifier: other.cpf })).set('Idempotency-Key', 'k'.repeat(256)),
          422,
          'invalid_parameter',
        );
        expect(await visits()).toBe(1);
      });

      it('forgets a key after 24 hours', async () => {
        const s = await scenario();
        const body = envelope({ identifier: s.beneficiary.cpf });
        t.clock.set('2026-11-02T10:00:00Z');
        await s.register(body).set('Idempotency-Key', 'daily').expect(204);
        t.clock.set('2026-11-03T10:00:01Z');
        await s.register(body).set('Idempotency-Key', 'daily').expect(204);
        expect(await visits()).toBe(2);
      });
    });
  });

  describe('every label, with status, title, label, detail and source', () => {
    it('invalid_parameter names the field', async () => {
      const s = await scenario();
      expect(expectError(await s.validate({ type: 'cpf' }), 422, 'invalid_parameter')).toBe(
        'identifier is required',
      );
    });

    it('invalid_gym when service_provider_code is not the gym of the key', async () => {
      const s = await scenario();
      const detail = expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf, service_provider_code: 'ZZZZ9999' })),
        422,
        'invalid_gym',
      );
      expect(detail).toContain('ZZZZ9999');
    });

    it('gym_inactive for an inactive gym', async () => {
      const s = await scenario();
      await t.dataSource.query('UPDATE places SET active = 0 WHERE id = ?', [s.place.id]);
      expectError(await s.validate(flat({ identifier: s.beneficiary.cpf })), 422, 'gym_inactive');
      expectError(await s.register(envelope({ identifier: s.beneficiary.cpf })), 422, 'gym_inactive');
    });

    it('gym_with_more_than_one_plan and invalid_plan at a gym with two plans', async () => {
      const s = await scenario();
      const second = await createPlan(t.dataSource, s.place, { tier: 1 });
      const detail = expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf })),
        422,
        'gym_with_more_than_one_plan',
      );
      expect(detail).toContain(second.code);
      expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf, service_provider_plan_code: 'NOPE0000' })),
        422,
        'invalid_plan',
      );
      await s
        .register(envelope({ identifier: s.beneficiary.cpf, service_provider_plan_code: second.code }))
        .expect(204);
      const [row] = await t.dataSource.query('SELECT plan_id FROM visits');
      expect(row.plan_id).toBe(second.id);
    });

    it('invalid_plan for a soft-deleted plan', async () => {
      const s = await scenario();
      await deletePlan(t.dataSource, s.plan);
      expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf, service_provider_plan_code: s.plan.code })),
        422,
        'invalid_plan',
      );
    });

    it('not_exists for an unknown CPF, wrong check digits, an unknown code, no benefit plan, an inactive benefit plan', async () => {
      const s = await scenario();
      expectError(await s.validate(flat({ identifier: nextCpf() })), 422, 'not_exists');
      const wrongDigits =
        s.beneficiary.cpf.slice(0, 9) +
        String((Number(s.beneficiary.cpf.slice(9)) + 1) % 100).padStart(2, '0');
      expectError(await s.validate(flat({ identifier: wrongDigits })), 422, 'not_exists');
      expectError(await s.register(envelope({ identifier: wrongDigits })), 422, 'not_exists');
      expectError(await s.validate(flat({ type: 'code', identifier: 'NOPE0000' })), 422, 'not_exists');
      const orphan = await createBeneficiary(t.dataSource, null);
      expectError(await s.validate(flat({ identifier: orphan.cpf })), 422, 'not_exists');
      const retired = await createBenefitPlan(t.dataSource, { active: false });
      const retiredMember = await createBeneficiary(t.dataSource, retired);
      expectError(await s.register(envelope({ identifier: retiredMember.cpf })), 422, 'not_exists');
      expect(await visits()).toBe(0);
    });

    it('inactive_employee for an inactive beneficiary', async () => {
      const s = await scenario();
      const inactive = await createBeneficiary(t.dataSource, s.benefitPlan, { active: false });
      expectError(await s.validate(flat({ identifier: inactive.cpf })), 422, 'inactive_employee');
      expectError(await s.register(envelope({ identifier: inactive.cpf })), 422, 'inactive_employee');
    });

    it('plan_not_allowed when the gym plan tier is above the benefit plan tier', async () => {
      const s = await scenario();
      const basic = await createBenefitPlan(t.dataSource, { tier: 0 });
      const member = await createBeneficiary(t.dataSource, basic);
      expectError(await s.validate(flat({ identifier: member.cpf })), 422, 'plan_not_allowed');
      expectError(await s.register(envelope({ identifier: member.cpf })), 422, 'plan_not_allowed');
    });

    it('already_used at this gym and already_used_other_gym at another, with the times in São Paulo', async () => {
      const s = await scenario();
      const other = await createPlace(t, s.partner, { name: 'Other unit' });
      await createPlan(t.dataSource, other.place, { tier: 1 });
      t.clock.set('2026-11-22T10:02:00Z');
      await s.register(envelope({ identifier: s.beneficiary.cpf })).expect(204);
      t.clock.set('2026-11-22T10:30:00Z');
      expect(
        expectError(await s.validate(flat({ identifier: s.beneficiary.cpf })), 422, 'already_used'),
      ).toBe('A check-in at this gym was recorded at 07:02; try again after 08:32.');
      expect(
        expectError(
          await s.validate(flat({ identifier: s.beneficiary.cpf }), other.placeApiKey),
          422,
          'already_used_other_gym',
        ),
      ).toBe('A check-in at another gym was recorded at 07:02; try again after 08:32.');
    });

    it('usage_limit_reached once the monthly limit is spent', async () => {
      const s = await scenario();
      const limited = await createBenefitPlan(t.dataSource, { tier: 3, monthlyVisitLimit: 2 });
      const member = await createBeneficiary(t.dataSource, limited);
      t.clock.set('2026-11-02T10:00:00Z');
      await s.register(envelope({ identifier: member.cpf })).expect(204);
      t.clock.set('2026-11-03T10:00:00Z');
      await s.register(envelope({ identifier: member.cpf })).expect(204);
      t.clock.set('2026-11-04T10:00:00Z');
      expectError(await s.validate(flat({ identifier: member.cpf })), 422, 'usage_limit_reached');
      expectError(await s.register(envelope({ identifier: member.cpf })), 422, 'usage_limit_reached');
      expect(await visits()).toBe(2);
    });
  });

  describe('a gym without active plans', () => {
    it('places no tier restriction and records the visit without a plan', async () => {
      const s = await scenario();
      await deletePlan(t.dataSource, s.plan);
      const basic = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource, { tier: 0 }));
      await s.validate(flat({ identifier: basic.cpf })).expect(204);
      await s.register(envelope({ identifier: basic.cpf })).expect(204);
      const [row] = await t.dataSource.query('SELECT plan_id FROM visits');
      expect(row.plan_id).toBeNull();
    });

    it('refuses a plan code with invalid_plan', async () => {
      const s = await scenario();
      await deletePlan(t.dataSource, s.plan);
      expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf, service_provider_plan_code: s.plan.code })),
        422,
        'invalid_plan',
      );
    });
  });

  describe("the place's summary of plans", () => {
    it('follows plans added and deleted through the control panel at once', async () => {
      const s = await scenario();
      const admin = (req: request.Test) => req.set('Authorization', `Bearer ${t.config.adminApiToken}`);
      const added = await admin(request(t.http).post(`/admin/places/${s.place.id}/plans`))
        .send({ name: 'Natação', tier: 1 })
        .expect(201);
      expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf })),
        422,
        'gym_with_more_than_one_plan',
      );
      await s
        .validate(flat({ identifier: s.beneficiary.cpf, service_provider_plan_code: added.body.code }))
        .expect(204);
      await admin(request(t.http).delete(`/admin/places/${s.place.id}/plans/${added.body.code}`)).expect(200);
      await s.validate(flat({ identifier: s.beneficiary.cpf })).expect(204);
    });

    it('is rebuilt from the plans table at start, so plans edited by hand count after a restart', async () => {
      const s = await scenario();
      await t.dataSource.query('UPDATE plans SET tier = 9 WHERE id = ?', [s.plan.id]);
      await t.app.get(PlaceSummaryRepository).onApplicationBootstrap();
      expectError(await s.validate(flat({ identifier: s.beneficiary.cpf })), 422, 'plan_not_allowed');
    });
  });

  describe('x-api-key', () => {
    const routes = ['/v1/track_usages/validate', '/v1/track_usages', '/v1/track_usages/beneficiaries/code'];

    it.each(routes)('%s answers 401 invalid_api_key for a missing or unknown key', async (path) => {
      const s = await scenario();
      const body = envelope({ identifier: s.beneficiary.cpf });
      expectError(await request(t.http).post(path).send(body), 401, 'invalid_api_key', 'Unauthorized');
      expectError(
        await request(t.http).post(path).set('x-api-key', 'plk_unknown').send(body),
        401,
        'invalid_api_key',
        'Unauthorized',
      );
      expect(await visits()).toBe(0);
    });
  });

  describe('precedence when two rules fail at once', () => {
    it('an inactive gym and an unknown CPF answer gym_inactive', async () => {
      const s = await scenario();
      await t.dataSource.query('UPDATE places SET active = 0 WHERE id = ?', [s.place.id]);
      expectError(await s.validate(flat({ identifier: nextCpf() })), 422, 'gym_inactive');
    });

    it('a foreign gym code and an inactive gym answer invalid_gym', async () => {
      const s = await scenario();
      await t.dataSource.query('UPDATE places SET active = 0 WHERE id = ?', [s.place.id]);
      expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf, service_provider_code: 'OTHER000' })),
        422,
        'invalid_gym',
      );
    });

    it('a missing plan code and an inactive beneficiary answer gym_with_more_than_one_plan', async () => {
      const s = await scenario();
      await createPlan(t.dataSource, s.place);
      const inactive = await createBeneficiary(t.dataSource, s.benefitPlan, { active: false });
      expectError(await s.validate(flat({ identifier: inactive.cpf })), 422, 'gym_with_more_than_one_plan');
    });

    it('bad input answers invalid_parameter before any gym rule', async () => {
      const s = await scenario();
      await t.dataSource.query('UPDATE places SET active = 0 WHERE id = ?', [s.place.id]);
      expectError(await s.validate({ type: 'passport', identifier: 'X' }), 422, 'invalid_parameter');
    });

    it('an unknown plan code and an unknown CPF answer invalid_plan', async () => {
      const s = await scenario();
      expectError(
        await s.validate(flat({ identifier: nextCpf(), service_provider_plan_code: 'NOPE0000' })),
        422,
        'invalid_plan',
      );
    });

    it('no benefit plan and an inactive beneficiary answer not_exists', async () => {
      const s = await scenario();
      const orphan = await createBeneficiary(t.dataSource, null, { active: false });
      expectError(await s.validate(flat({ identifier: orphan.cpf })), 422, 'not_exists');
    });

    it('a tier too low and a recent visit at another gym answer plan_not_allowed', async () => {
      const s = await scenario();
      const premium = await createPlace(t, s.partner, { name: 'Premium unit' });
      await createPlan(t.dataSource, premium.place, { tier: 5 });
      await s.register(envelope({ identifier: s.beneficiary.cpf })).expect(204);
      expectError(
        await s.validate(flat({ identifier: s.beneficiary.cpf }), premium.placeApiKey),
        422,
        'plan_not_allowed',
      );
    });

    it('a recent visit and the limit spent answer already_used', async () => {
      const s = await scenario();
      const once = await createBenefitPlan(t.dataSource, { tier: 3, monthlyVisitLimit: 1 });
      const member = await createBeneficiary(t.dataSource, once);
      await s.register(envelope({ identifier: member.cpf })).expect(204);
      expectError(await s.register(envelope({ identifier: member.cpf })), 422, 'already_used');
    });

    it('an inactive beneficiary with the limit spent answers inactive_employee', async () => {
      const s = await scenario();
      const limited = await createBenefitPlan(t.dataSource, { tier: 3, monthlyVisitLimit: 0 });
      const member = await createBeneficiary(t.dataSource, limited, { active: false });
      expectError(await s.validate(flat({ identifier: member.cpf })), 422, 'inactive_employee');
    });
  });

  describe('bad input never reaches the database and never answers 500', () => {
    const bodies: [string, unknown][] = [
      ['an empty object', {}],
      ['a missing identifier', { type: 'cpf' }],
      ['a numeric identifier', { type: 'cpf', identifier: 11144477735 }],
      ['an array identifier', { type: 'cpf', identifier: ['11144477735'] }],
      ['an object identifier', { type: 'cpf', identifier: { value: '11144477735' } }],
      ['an unknown identifier type', { type: 'email', identifier: 'a@b.c' }],
      ['a boolean type', { type: true, identifier: '11144477735' }],
      ['a huge identifier', { type: 'cpf', identifier: '1'.repeat(50_000) }],
      [
        'a huge gym code',
        { type: 'cpf', identifier: '11144477735', service_provider_code: 'A'.repeat(50_000) },
      ],
      ['a numeric plan code', { type: 'cpf', identifier: '11144477735', service_provider_plan_code: 12 }],
      ['attributes as an array', { data: { type: 'track_usage', attributes: [] } }],
      ['data as a string', { data: 'track_usage' }],
      ['data as an array', { data: [{ type: 'track_usage', attributes: { type: 'cpf' } }] }],
      ['a null identifier', { type: 'cpf', identifier: null }],
      ['a huge data.type', { data: { type: 'x'.repeat(50_000), attributes: { type: 'cpf' } } }],
      ['a short CPF', { type: 'cpf', identifier: '123' }],
      ['a code with symbols', { type: 'code', identifier: "' OR 1=1 --" }],
    ];

    it.each(bodies)('%s → 422 invalid_parameter on validate and register', async (_name, body) => {
      const s = await scenario();
      expectError(await s.validate(body as object), 422, 'invalid_parameter');
      expectError(await s.register(body as object), 422, 'invalid_parameter');
      expect(await visits()).toBe(0);
    });

    it('a body that is an array → 400 malformed_request', async () => {
      const s = await scenario();
      expectError(await s.register([1, 2] as unknown as object), 400, 'malformed_request', 'Bad Request');
    });

    it('ignores extra fields', async () => {
      const s = await scenario();
      await s
        .validate({ ...flat({ identifier: s.beneficiary.cpf }), extra: { deep: [1, 2, 3] }, note: 'x' })
        .expect(204);
    });
  });

  describe('POST /v1/track_usages/beneficiaries/code', () => {
    it("answers the beneficiary's code in both shapes the contract gives", async () => {
      const s = await scenario();
      const res = await request(t.http)
        .post('/v1/track_usages/beneficiaries/code')
        .set('x-api-key', s.placeApiKey)
        .send({ type: 'cpf', identifier: s.beneficiary.cpf })
        .expect(200);
      const code = s.beneficiary.code;
      expect(res.body).toEqual({ code, data: { type: 'beneficiary', id: code, attributes: { code } } });
      await request(t.http)
        .post('/v1/track_usages/beneficiaries/code')
        .set('x-api-key', s.placeApiKey)
        .send(envelope({ identifier: s.beneficiary.cpf }))
        .expect(200);
    });

    it('answers not_exists for an unknown CPF and invalid_parameter for bad input', async () => {
      const s = await scenario();
      const post = (body: object) =>
        request(t.http)
          .post('/v1/track_usages/beneficiaries/code')
          .set('x-api-key', s.placeApiKey)
          .send(body);
      expectError(await post({ type: 'cpf', identifier: nextCpf() }), 422, 'not_exists');
      expectError(await post({ type: 'cpf' }), 422, 'invalid_parameter');
    });
  });
});
