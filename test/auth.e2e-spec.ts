import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { generateApiKey, hashKey } from '../src/common/crypto/key-vault';
import { createGym, createPartner, createPlace } from './factories/partners.factory';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

function expectError(body: { errors: Record<string, unknown>[] }, status: string, label: string) {
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ status, label, source: [{ label }] });
  expect(typeof body.errors[0].detail).toBe('string');
}

describe('authentication (e2e)', () => {
  let t: TestApp;
  const jwt = new JwtService();

  beforeAll(async () => {
    t = await createTestApp({ KEY_CACHE_TTL_MS: '0' });
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  async function tokenFor(placeApiKey: string, partnerApiKey: string): Promise<string> {
    const res = await request(t.http)
      .post('/partner/auth')
      .send({ place_api_key: placeApiKey, partner_api_key: partnerApiKey })
      .expect(201);
    return res.body.token;
  }

  describe('POST /partner/auth', () => {
    it('answers 201 with partner, place and a 24-hour HS256 token that carries no key', async () => {
      const gym = await createGym(t);
      const res = await request(t.http)
        .post('/partner/auth')
        .send({ place_api_key: gym.placeApiKey, partner_api_key: gym.partnerApiKey })
        .expect(201);
      expect(res.body.partner).toEqual({ name: gym.partner.name, partnerApiKey: gym.partnerApiKey });
      expect(res.body.place).toEqual({ name: gym.place.name, placeApiKey: gym.placeApiKey });
      const [header, payload] = res.body.token
        .split('.')
        .map((part: string) => Buffer.from(part, 'base64url').toString());
      expect(JSON.parse(header).alg).toBe('HS256');
      const claims = JSON.parse(payload);
      expect(claims.exp - claims.iat).toBe(86400);
      expect(claims.sub).toBe(gym.place.id);
      expect(payload).not.toContain(gym.placeApiKey);
      expect(payload).not.toContain(gym.partnerApiKey);
    });

    it('refuses a place that belongs to another partner', async () => {
      const gym = await createGym(t);
      const other = await createPartner(t, { name: 'Other chain' });
      const res = await request(t.http)
        .post('/partner/auth')
        .send({ place_api_key: gym.placeApiKey, partner_api_key: other.partnerApiKey })
        .expect(401);
      expectError(res.body, '401', 'invalid_credentials');
      expect(res.body.errors[0].title).toBe('Unauthorized');
    });

    it.each([
      [
        'unknown place key',
        (g: { partnerApiKey: string }) => ({ place_api_key: 'plk_nope', partner_api_key: g.partnerApiKey }),
      ],
      [
        'unknown partner key',
        (g: { placeApiKey: string }) => ({ place_api_key: g.placeApiKey, partner_api_key: 'ptk_nope' }),
      ],
    ])('refuses an %s with invalid_credentials', async (_name, body) => {
      const gym = await createGym(t);
      const res = await request(t.http).post('/partner/auth').send(body(gym)).expect(401);
      expectError(res.body, '401', 'invalid_credentials');
    });

    it('answers invalid_parameter naming a missing or mistyped field', async () => {
      let res = await request(t.http).post('/partner/auth').send({ place_api_key: 'x' }).expect(422);
      expectError(res.body, '422', 'invalid_parameter');
      expect(res.body.errors[0].detail).toContain('partner_api_key');
      res = await request(t.http)
        .post('/partner/auth')
        .send({ place_api_key: 5, partner_api_key: 'y' })
        .expect(422);
      expect(res.body.errors[0].detail).toBe('place_api_key must be a string');
    });
  });

  describe('bearer guard on /partner/*', () => {
    it('accepts a fresh token', async () => {
      const gym = await createGym(t);
      const token = await tokenFor(gym.placeApiKey, gym.partnerApiKey);
      await request(t.http).get('/partner/plans').set('Authorization', `Bearer ${token}`).expect(200);
    });

    it('refuses a missing token with invalid_token', async () => {
      const res = await request(t.http).get('/partner/plans').expect(401);
      expectError(res.body, '401', 'invalid_token');
    });

    it('refuses a malformed token with invalid_token', async () => {
      const res = await request(t.http)
        .get('/partner/plans')
        .set('Authorization', 'Bearer not-a-jwt')
        .expect(401);
      expectError(res.body, '401', 'invalid_token');
    });

    it('refuses a tampered token with invalid_token', async () => {
      const gym = await createGym(t);
      const other = await createPlace(t, gym.partner, { name: 'Other unit' });
      const [header, payload, signature] = (await tokenFor(gym.placeApiKey, gym.partnerApiKey)).split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: other.place.id })).toString('base64url');
      const res = await request(t.http)
        .get('/partner/plans')
        .set('Authorization', `Bearer ${header}.${forged}.${signature}`)
        .expect(401);
      expectError(res.body, '401', 'invalid_token');
    });

    it('refuses a token signed with another secret (foreign) with invalid_token', async () => {
      const gym = await createGym(t);
      const token = await jwt.signAsync(
        { sub: gym.place.id, partner_id: gym.partner.id, pkv: 1, ptkv: 1 },
        { secret: 'someone-elses-secret', algorithm: 'HS256', expiresIn: 3600 },
      );
      const res = await request(t.http)
        .get('/partner/plans')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expectError(res.body, '401', 'invalid_token');
    });

    it('refuses an unsigned (alg none) token with invalid_token', async () => {
      const gym = await createGym(t);
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const payload = Buffer.from(
        JSON.stringify({ sub: gym.place.id, partner_id: gym.partner.id, pkv: 1, ptkv: 1, exp: 9999999999 }),
      ).toString('base64url');
      const res = await request(t.http)
        .get('/partner/plans')
        .set('Authorization', `Bearer ${header}.${payload}.`)
        .expect(401);
      expectError(res.body, '401', 'invalid_token');
    });

    it('refuses an expired token with token_expired', async () => {
      const gym = await createGym(t);
      const now = Math.floor(Date.now() / 1000);
      const token = await jwt.signAsync(
        { sub: gym.place.id, partner_id: gym.partner.id, pkv: 1, ptkv: 1, iat: now - 90000, exp: now - 3600 },
        { secret: t.config.jwtSecret, algorithm: 'HS256' },
      );
      const res = await request(t.http)
        .get('/partner/plans')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expectError(res.body, '401', 'token_expired');
    });

    it('refuses a token issued before the place key was rotated', async () => {
      const gym = await createGym(t);
      const token = await tokenFor(gym.placeApiKey, gym.partnerApiKey);
      await t.dataSource.query('UPDATE places SET key_version = key_version + 1 WHERE id = ?', [
        gym.place.id,
      ]);
      const res = await request(t.http)
        .get('/partner/plans')
        .set('Authorization', `Bearer ${token}`)
        .expect(401);
      expectError(res.body, '401', 'invalid_token');
    });

    it('refuses an x-api-key where a bearer token is required', async () => {
      const gym = await createGym(t);
      const res = await request(t.http).get('/partner/plans').set('x-api-key', gym.placeApiKey).expect(401);
      expectError(res.body, '401', 'invalid_token');
    });
  });

  describe('x-api-key guard on /v1/track_usages* and /partner_app/v1/validate', () => {
    const routes = [
      '/v1/track_usages/validate',
      '/v1/track_usages',
      '/v1/track_usages/beneficiaries/code',
      '/partner_app/v1/validate',
    ];

    it.each(routes)('refuses %s without a key', async (route) => {
      const res = await request(t.http).post(route).send({}).expect(401);
      expectError(res.body, '401', 'invalid_api_key');
    });

    it.each(routes)('refuses %s with an unknown key', async (route) => {
      const res = await request(t.http)
        .post(route)
        .set('x-api-key', generateApiKey('plk'))
        .send({})
        .expect(401);
      expectError(res.body, '401', 'invalid_api_key');
    });

    it('refuses a bearer token where an x-api-key is required', async () => {
      const gym = await createGym(t);
      const token = await tokenFor(gym.placeApiKey, gym.partnerApiKey);
      const res = await request(t.http)
        .post('/v1/track_usages/validate')
        .set('Authorization', `Bearer ${token}`)
        .send({})
        .expect(401);
      expectError(res.body, '401', 'invalid_api_key');
    });

    it('refuses a revoked key and accepts its replacement', async () => {
      const gym = await createGym(t);
      const body = { type: 'cpf', identifier: '11144477735' };
      await request(t.http)
        .post('/v1/track_usages/validate')
        .set('x-api-key', gym.placeApiKey)
        .send(body)
        .expect(422);
      const replacement = generateApiKey('plk');
      await t.dataSource.query('UPDATE places SET api_key_hash = ? WHERE id = ?', [
        hashKey(replacement),
        gym.place.id,
      ]);
      const res = await request(t.http)
        .post('/v1/track_usages/validate')
        .set('x-api-key', gym.placeApiKey)
        .send(body)
        .expect(401);
      expectError(res.body, '401', 'invalid_api_key');
      const ok = await request(t.http)
        .post('/v1/track_usages/validate')
        .set('x-api-key', replacement)
        .send(body);
      expect(ok.status).toBe(422);
      expect(ok.body.errors[0].label).toBe('not_exists');
    });
  });
});
