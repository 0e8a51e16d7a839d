import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createGym, createPlace, createPlan } from './factories/partners.factory';
import { expectError, partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('GET /partner/plans (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  async function gymWithToken() {
    const gym = await createGym(t, {}, { name: 'Musculação', externalReference: 'ERP-1' });
    return { ...gym, token: await partnerToken(t.http, gym) };
  }

  it('answers the gym with its active plans and its key', async () => {
    const g = await gymWithToken();
    const second = await createPlan(t.dataSource, g.place, { name: 'Premium', tier: 3 });
    const deleted = await createPlan(t.dataSource, g.place, { name: 'Old' });
    await t.dataSource.query('UPDATE plans SET deleted_at = NOW(3) WHERE id = ?', [deleted.id]);
    const other = await createPlace(t, g.partner, { name: 'Another unit' });
    await createPlan(t.dataSource, other.place, { name: 'Not mine' });

    const res = await request(t.http)
      .get('/partner/plans')
      .set('Authorization', `Bearer ${g.token}`)
      .expect(200);
    expect(res.body).toEqual({
      name: g.place.name,
      identifier: g.place.id,
      placeApiKey: g.placeApiKey,
      Plans: [
        {
          id: g.plan.id,
          name: 'Musculação',
          code: g.plan.code,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          deletedAt: null,
          placeId: g.place.id,
          externalReference: 'ERP-1',
        },
        expect.objectContaining({
          id: second.id,
          name: 'Premium',
          code: second.code,
          externalReference: null,
        }),
      ],
    });
  });

  it('answers an array of the matching plans with ?id=', async () => {
    const g = await gymWithToken();
    const res = await request(t.http)
      .get(`/partner/plans?id=${g.plan.code}`)
      .set('Authorization', `Bearer ${g.token}`)
      .expect(200);
    expect(res.body).toEqual([
      expect.objectContaining({ id: g.plan.id, code: g.plan.code, placeId: g.place.id }),
    ]);
  });

  it('answers 400 invalid_plan when ?id= matches no active plan of the gym', async () => {
    const g = await gymWithToken();
    const other = await createPlace(t, g.partner, { name: 'Another unit' });
    const foreign = await createPlan(t.dataSource, other.place);
    for (const id of ['NOPE0000', foreign.code]) {
      const res = await request(t.http)
        .get(`/partner/plans?id=${id}`)
        .set('Authorization', `Bearer ${g.token}`);
      expectError(res, 400, 'invalid_plan', 'Bad Request');
    }
  });

  describe('bearer token', () => {
    const get = (authorization?: string) => {
      const req = request(t.http).get('/partner/plans');
      return authorization === undefined ? req : req.set('Authorization', authorization);
    };

    it('answers 401 invalid_token when the token is missing or not a bearer', async () => {
      expectError(await get(), 401, 'invalid_token', 'Unauthorized');
      const g = await gymWithToken();
      expectError(await get(`Token ${g.token}`), 401, 'invalid_token', 'Unauthorized');
    });

    it('answers 401 invalid_token for a tampered token', async () => {
      const g = await gymWithToken();
      const [header, payload, signature] = g.token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url');
      expectError(await get(`Bearer ${header}.${forged}.${signature}`), 401, 'invalid_token', 'Unauthorized');
      expectError(await get('Bearer not-a-jwt'), 401, 'invalid_token', 'Unauthorized');
    });

    it('answers 401 token_expired for an expired token', async () => {
      const g = await gymWithToken();
      const claims = JSON.parse(Buffer.from(g.token.split('.')[1], 'base64url').toString());
      const now = Math.floor(Date.now() / 1000);
      const expired = new JwtService().sign(
        { ...claims, iat: now - 90_000, exp: now - 3_600 },
        { secret: t.config.jwtSecret, algorithm: 'HS256' },
      );
      expectError(await get(`Bearer ${expired}`), 401, 'token_expired', 'Unauthorized');
      await get(`Bearer ${g.token}`).expect(200);
    });
  });

  it.each(['', '%20'])(
    'answers 400 invalid_plan for an empty ?id= (%j), never the whole list',
    async (value) => {
      const g = await gymWithToken();
      const res = await request(t.http)
        .get(`/partner/plans?id=${value}`)
        .set('Authorization', `Bearer ${g.token}`);
      expectError(res, 400, 'invalid_plan', 'Bad Request');
    },
  );

  it('answers invalid_parameter for a repeated ?id=', async () => {
    const g = await gymWithToken();
    const res = await request(t.http)
      .get('/partner/plans?id=A&id=B')
      .set('Authorization', `Bearer ${g.token}`);
    expectError(res, 422, 'invalid_parameter');
  });
});
