import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { envelope, expectError, flat } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('check-in time rules with an injected clock (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      BUSINESS_TIMEZONE: 'America/Sao_Paulo',
      RECENT_CHECKIN_WINDOW_SECONDS: '5400',
    });
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    t.clock.reset();
  });
  afterAll(() => t.close());

  async function member(monthlyVisitLimit: number | null = null) {
    const gym = await createGym(t);
    const beneficiary = await createBeneficiary(
      t.dataSource,
      await createBenefitPlan(t.dataSource, { monthlyVisitLimit }),
    );
    const register = () =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier: beneficiary.cpf }));
    const validate = () =>
      request(t.http)
        .post('/v1/track_usages/validate')
        .set('x-api-key', gym.placeApiKey)
        .send(flat({ identifier: beneficiary.cpf }));
    return { register, validate };
  }

  it('counts a visit as recent for exactly the window', async () => {
    const m = await member();
    t.clock.set('2026-11-10T12:00:00.000Z');
    await m.register().expect(204);
    t.clock.set('2026-11-10T13:29:59.999Z');
    expectError(await m.validate(), 422, 'already_used');
    t.clock.set('2026-11-10T13:30:00.000Z');
    await m.validate().expect(204);
    await m.register().expect(204);
  });

  it('keeps the limit spent until midnight in São Paulo, not midnight UTC', async () => {
    const m = await member(1);
    t.clock.set('2026-11-30T12:00:00.000Z'); // 09:00 on Nov 30 in São Paulo
    await m.register().expect(204);
    t.clock.set('2026-12-01T01:00:00.000Z'); // already December in UTC, 22:00 on Nov 30 in São Paulo
    expectError(await m.validate(), 422, 'usage_limit_reached');
    t.clock.set('2026-12-01T03:00:00.000Z'); // 00:00 on Dec 1 in São Paulo
    await m.validate().expect(204);
    await m.register().expect(204);
  });

  it('keeps a visit of the month before recent after midnight, while the new month counts from zero', async () => {
    const m = await member(1);
    t.clock.set('2026-12-01T02:30:00.000Z'); // 23:30 on Nov 30 in São Paulo
    await m.register().expect(204);
    t.clock.set('2026-12-01T03:10:00.000Z'); // 00:10 on Dec 1: within the 90 minutes, a new month
    expectError(await m.validate(), 422, 'already_used');
    t.clock.set('2026-12-01T04:00:00.000Z'); // 01:00: the window is over, December has no visit yet
    await m.validate().expect(204);
    await m.register().expect(204);
    expectError(await m.validate(), 422, 'already_used');
    t.clock.set('2026-12-01T06:00:00.000Z'); // 03:00: the limit of 1 is spent in December
    expectError(await m.validate(), 422, 'usage_limit_reached');
  });

  it('stamps the visit with the server clock, whatever the client sends', async () => {
    const gym = await createGym(t);
    const beneficiary = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    t.clock.set('2026-11-10T12:00:00.123Z');
    const body = envelope({ identifier: beneficiary.cpf });
    Object.assign(body.data.attributes, {
      created_at: '2020-01-01T00:00:00Z',
      started_at: '2020-01-01T00:00:00Z',
    });
    await request(t.http).post('/v1/track_usages').set('x-api-key', gym.placeApiKey).send(body).expect(204);
    const [row] = await t.dataSource.query('SELECT created_at FROM visits');
    expect(row.created_at).toEqual(new Date('2026-11-10T12:00:00.123Z'));
  });

  // Passport keeps one strategy per name per process: the app made last serves every app until it closes,
  // so this app lives to the end of the file.
  describe('with the recent window at 0', () => {
    let instant: TestApp;
    beforeAll(async () => {
      instant = await createTestApp({ RECENT_CHECKIN_WINDOW_SECONDS: '0' });
    });
    afterAll(() => instant.close());

    it('counts a visit at 23:59 on the last day of a month in São Paulo in that month, though UTC is already the next', async () => {
      instant.clock.set('2026-11-30T13:00:00.000Z'); // 10:00 on Nov 30 in São Paulo
      const gym = await createGym(instant);
      const beneficiary = await createBeneficiary(
        instant.dataSource,
        await createBenefitPlan(instant.dataSource, { monthlyVisitLimit: 2 }),
      );
      const post = (path: string, body: object) =>
        request(instant.http).post(path).set('x-api-key', gym.placeApiKey).send(body);
      await post('/v1/track_usages', envelope({ identifier: beneficiary.cpf })).expect(204);
      instant.clock.set('2026-12-01T02:59:00.000Z'); // 23:59 on Nov 30 in São Paulo, Dec 1 in UTC
      await post('/v1/track_usages', envelope({ identifier: beneficiary.cpf })).expect(204);
      instant.clock.set('2026-12-01T02:59:30.000Z'); // both visits count for November: the limit of 2 is spent
      expectError(
        await post('/v1/track_usages/validate', flat({ identifier: beneficiary.cpf })),
        422,
        'usage_limit_reached',
      );
      instant.clock.set('2026-12-01T03:00:00.000Z'); // 00:00 on Dec 1 in São Paulo: a new month
      await post('/v1/track_usages/validate', flat({ identifier: beneficiary.cpf })).expect(204);
    });
  });
});
