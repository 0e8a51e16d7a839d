import request from 'supertest';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

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
    const ok = await request(t.http)
      .post('/admin/accounts')
      .set('Authorization', admin)
      .send({
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
});
