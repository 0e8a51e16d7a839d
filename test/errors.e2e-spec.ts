import request from 'supertest';
import { ApiKeysRepository } from '../src/modules/partners/api-keys.repository';
import { createTestApp, TestApp } from './support/test-app';

function expectEnvelope(
  body: { errors: Record<string, unknown>[] },
  status: string,
  title: string,
  label: string,
) {
  expect(body).toEqual({
    errors: [
      {
        status,
        title,
        label,
        detail: expect.any(String),
        source: [{ label, message: body.errors[0].detail }],
        meta: { request_id: expect.stringMatching(/\S/) },
      },
    ],
  });
}

describe('error envelope on every non-2xx answer (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/nope'],
    ['POST', '/v1/unknown'],
    ['DELETE', '/partner/auth'],
  ])('answers %s %s (unknown route) with 404 not_found', async (method, path) => {
    const res = await request(t.http)[method.toLowerCase() as 'get' | 'post' | 'delete'](path).expect(404);
    expectEnvelope(res.body, '404', 'Not Found', 'not_found');
  });

  it('answers malformed JSON with 400 malformed_request', async () => {
    const res = await request(t.http)
      .post('/partner/auth')
      .set('content-type', 'application/json')
      .send('{"place_api_key": ')
      .expect(400);
    expectEnvelope(res.body, '400', 'Bad Request', 'malformed_request');
  });

  it.each([['[1,2]'], ['"text"'], ['42'], ['null']])(
    'answers a body that is not an object (%s) with 400',
    async (raw) => {
      const res = await request(t.http)
        .post('/partner/auth')
        .set('content-type', 'application/json')
        .send(raw)
        .expect(400);
      expectEnvelope(res.body, '400', 'Bad Request', 'malformed_request');
    },
  );

  it('answers an oversized body with 413 payload_too_large', async () => {
    const res = await request(t.http)
      .post('/partner/auth')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ place_api_key: 'x'.repeat(200_000), partner_api_key: 'y' }))
      .expect(413);
    expectEnvelope(res.body, '413', 'Payload Too Large', 'payload_too_large');
  });

  it('reads a JSON body whatever its content type, or none', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json']) {
      const res = await request(t.http)
        .post('/partner/auth')
        .set('content-type', type)
        .send(JSON.stringify({ partner_api_key: 'y' }))
        .expect(422);
      expect(res.body.errors[0].detail).toContain('place_api_key');
    }
  });

  it('treats a write without a body as an empty object, so validation names the missing field', async () => {
    const res = await request(t.http).post('/partner/auth').expect(422);
    expectEnvelope(res.body, '422', 'Validation Error', 'invalid_parameter');
    expect(res.body.errors[0].detail).toContain('place_api_key');
  });

  it('refuses a body that tries to set __proto__ with 400 malformed_request', async () => {
    const res = await request(t.http)
      .post('/partner/auth')
      .set('content-type', 'application/json')
      .send('{"place_api_key":"a","partner_api_key":"b","__proto__":{"admin":true}}')
      .expect(400);
    expectEnvelope(res.body, '400', 'Bad Request', 'malformed_request');
  });

  it('lets only the bulk import carry more than 100 KB', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ cpf: String(i), name: 'x'.repeat(40) }));
    const big = JSON.stringify({ beneficiaries: rows });
    expect(big.length).toBeGreaterThan(100 * 1024);
    const admin = `Bearer ${t.config.adminApiToken}`;
    const bulk = await request(t.http)
      .post('/admin/beneficiaries/bulk')
      .set('Authorization', admin)
      .set('content-type', 'application/json')
      .send(big)
      .expect(200);
    expect(bulk.body.errors).toHaveLength(2000);
    const res = await request(t.http)
      .post('/admin/beneficiaries')
      .set('Authorization', admin)
      .set('content-type', 'application/json')
      .send(big)
      .expect(413);
    expectEnvelope(res.body, '413', 'Payload Too Large', 'payload_too_large');
  });

  it('answers a validation failure with 422 invalid_parameter naming the field', async () => {
    const res = await request(t.http).post('/partner/auth').send({ partner_api_key: 'y' }).expect(422);
    expectEnvelope(res.body, '422', 'Validation Error', 'invalid_parameter');
    expect(res.body.errors[0].detail).toContain('place_api_key');
  });

  it('echoes a caller request id and makes one up otherwise', async () => {
    const given = await request(t.http).get('/nope').set('x-request-id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await request(t.http).get('/nope');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unexpected exception with 500 internal_error, the request id, and no stack', async () => {
    const repository = t.app.get(ApiKeysRepository);
    const original = repository.findPlaceByKeyHash;
    repository.findPlaceByKeyHash = () =>
      Promise.reject(new Error('boom: connection lost at /srv/secret.ts:12'));
    try {
      const res = await request(t.http)
        .post('/partner/auth')
        .set('x-request-id', 'req-500-test')
        .send({ place_api_key: 'a', partner_api_key: 'b' })
        .expect(500);
      expectEnvelope(res.body, '500', 'Internal Server Error', 'internal_error');
      expect(res.body.errors[0].detail).toContain('req-500-test');
      expect(JSON.stringify(res.body)).not.toMatch(/boom|secret\.ts|at /);
    } finally {
      repository.findPlaceByKeyHash = original;
    }
  });

  it('serves the OpenAPI document with both security schemes and the error envelope', async () => {
    const res = await request(t.http).get('/docs-json').expect(200);
    expect(res.body.components.securitySchemes).toMatchObject({
      'x-api-key': { type: 'apiKey', in: 'header', name: 'x-api-key' },
      bearer: { type: 'http', scheme: 'bearer' },
    });
    expect(res.body.components.schemas.ErrorEnvelopeDto).toBeDefined();
    const auth = res.body.paths['/partner/auth'].post;
    expect(Object.keys(auth.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '422', '500']));
    expect(auth.responses['401'].content['application/json'].examples.invalid_credentials).toBeDefined();
    await request(t.http).get('/docs').expect(200);
  });
});

describe('rate limit on the token exchange (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('answers 429 rate_limited with Retry-After once the limit is spent', async () => {
    const body = { place_api_key: 'plk_x', partner_api_key: 'ptk_y' };
    for (let i = 0; i < 3; i++) await request(t.http).post('/partner/auth').send(body).expect(401);
    const res = await request(t.http).post('/partner/auth').send(body).expect(429);
    expectEnvelope(res.body, '429', 'Too Many Requests', 'rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});
