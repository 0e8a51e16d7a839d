import request from 'supertest';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** `{"k0":0,"k1":0,...}` as text: a flat object of `fields` fields. */
const flatObject = (fields: number) =>
  `{${Array.from({ length: fields }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;

describe('hostile input answers in the envelope, never 500 (e2e)', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    await truncateAll(t.dataSource);
    admin = `Bearer ${t.config.adminApiToken}`;
  });
  afterAll(() => t.close());

  it.each([
    ['/partner/auth', ''],
    ['/v1/track_usages', ''],
    ['/admin/accounts', 'admin'],
  ])('refuses JSON nested 5,000 deep on POST %s as 400 malformed_request', async (path, auth) => {
    const body = `{"place_api_key":${deep(5000)},"identifier":${deep(5000)},"email":${deep(5000)}}`;
    const res = await request(t.http)
      .post(path)
      .set('Content-Type', 'application/json')
      .set('Authorization', auth ? admin : '')
      .set('x-api-key', 'whatever')
      .send(body);
    expect(expectError(res, 400, 'malformed_request', 'Bad Request')).toBe(
      'The request body nests arrays or objects too deeply.',
    );
  });

  it('refuses a 2,000,000-deep bulk body before parsing it, and still takes a bulk body of ordinary depth', async () => {
    const res = await request(t.http)
      .post('/admin/beneficiaries/bulk')
      .set('Authorization', admin)
      .set('Content-Type', 'application/json')
      .send(`{"beneficiaries":${deep(2_000_000)}}`);
    expectError(res, 400, 'malformed_request', 'Bad Request');
    // Brackets inside strings do not count.
    const ok = await request(t.http).post('/admin/accounts').set('Authorization', admin).send({
      email: 'deep@example.com',
      name: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
      role: 'operator',
    });
    expect(ok.status).toBe(201);
  });

  it('answers 422 invalid_parameter to an e-mail holding a lone surrogate', async () => {
    const res = await request(t.http)
      .post('/admin/accounts')
      .set('Authorization', admin)
      .set('Content-Type', 'application/json')
      .send('{"email":"ana\\ud800@example.com","name":"Ana","role":"operator"}');
    expect(expectError(res, 422, 'invalid_parameter')).toBe('email must be an email address');
    const beneficiary = await request(t.http)
      .post('/admin/beneficiaries')
      .set('Authorization', admin)
      .set('Content-Type', 'application/json')
      .send('{"cpf":"11144477735","name":"Ana","email":"ana@exa\\udc00mple.com"}');
    expectError(beneficiary, 422, 'invalid_parameter');
  });

  describe('bodies whose shape costs more than their size (a flat object of many fields, a huge array)', () => {
    type Operation = { requestBody?: unknown };
    let bodyRoutes: [method: string, path: string][];

    beforeAll(async () => {
      const document = (await request(t.http).get('/docs-json').expect(200)).body as {
        paths: Record<string, Record<string, Operation>>;
      };
      bodyRoutes = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method))
          .map(([method]) => [method, path.replace(/\{[^}]+\}/g, 'x')] as [string, string]),
      );
    });

    it('refuses 100,000 fields on the bulk route before they are parsed or validated: 400 naming the limit', async () => {
      const body = flatObject(100_000);
      expect(body.length).toBeGreaterThan(800_000);
      const res = await request(t.http)
        .post('/admin/beneficiaries/bulk')
        .set('Authorization', admin)
        .set('Content-Type', 'application/json')
        .send(body);
      expect(expectError(res, 400, 'malformed_request', 'Bad Request')).toBe(
        'An object in the request body has more than 100 fields.',
      );
    });

    it('refuses 9,000 fields on every route that takes a body, before authentication', async () => {
      const body = flatObject(9_000);
      expect(body.length).toBeLessThan(100 * 1024);
      expect(bodyRoutes.map(([method, path]) => `${method} ${path}`)).toEqual(
        expect.arrayContaining([
          'post /partner/auth',
          'post /account/session',
          'post /account/password-links/x',
        ]),
      );
      const answers: Record<string, string> = {};
      for (const [method, path] of bodyRoutes) {
        const res = await request(t.http)
          [method as 'post'](path)
          .set('Content-Type', 'application/json')
          .send(body);
        answers[`${method} ${path}`] = `${res.status} ${res.body?.errors?.[0]?.label}`;
      }
      // The confirmation endpoint never reads a body: its token decides.
      const bodiless = 'post /api/v1/webhook_confirmations/x';
      expect(answers).toEqual(
        Object.fromEntries(
          Object.keys(answers).map((route) => [
            route,
            route === bodiless ? '404 not_found' : '400 malformed_request',
          ]),
        ),
      );
    });

    it('takes a body whose objects have 100 fields each, and refuses 101', async () => {
      const accepted = await request(t.http)
        .post('/partner/auth')
        .set('Content-Type', 'application/json')
        .send(flatObject(100));
      expectError(accepted, 422, 'invalid_parameter');
      const refused = await request(t.http)
        .post('/partner/auth')
        .set('Content-Type', 'application/json')
        .send(`{"place_api_key":"a","partner_api_key":"b","extra":${flatObject(101)}}`);
      expectError(refused, 400, 'malformed_request', 'Bad Request');
    });

    it('refuses more values than a route can use: 413 payload_too_large naming the count', async () => {
      const bulk = await request(t.http)
        .post('/admin/beneficiaries/bulk')
        .set('Authorization', admin)
        .set('Content-Type', 'application/json')
        .send(`{"beneficiaries":[${Array(1_000_000).fill('{}').join(',')}]}`);
      expect(expectError(bulk, 413, 'payload_too_large', 'Payload Too Large')).toBe(
        'The request body holds more than 120000 values (array elements and object fields, counted at every level).',
      );
      const small = await request(t.http)
        .post('/admin/accounts')
        .set('Authorization', admin)
        .set('Content-Type', 'application/json')
        .send(
          `{"email":"a@example.com","name":"A","role":"gym","place_ids":[${Array(2_000).fill('0').join(',')}]}`,
        );
      expect(expectError(small, 413, 'payload_too_large', 'Payload Too Large')).toContain('2000 values');
    });

    it('refuses a query of more than 100 parameters: 400', async () => {
      const query = Array.from({ length: 101 }, (_, i) => `p${i}=1`).join('&');
      const res = await request(t.http).get(`/admin/audit?${query}`).set('Authorization', admin);
      expect(expectError(res, 400, 'malformed_request', 'Bad Request')).toBe(
        'The query string has more than 100 parameters.',
      );
      const repeated = await request(t.http)
        .get(`/admin/audit?${Array(101).fill('actor=a').join('&')}`)
        .set('Authorization', admin);
      expectError(repeated, 400, 'malformed_request', 'Bad Request');
      await request(t.http).get('/admin/audit?page=1&actor=a').set('Authorization', admin).expect(200);
    });
  });
});
