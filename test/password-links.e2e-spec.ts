import request from 'supertest';
import { createAccount, PASSWORD } from './factories/accounts.factory';
import { signIn } from './support/console';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

const HOUR = 3_600_000;
const NEW_PASSWORD = 'a brand new passphrase';

describe('password links (e2e)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = `Bearer ${t.config.adminApiToken}`;
  });
  beforeEach(async () => {
    t.clock.reset();
    await truncateAll(t.dataSource);
  });
  afterAll(() => t.close());

  const tokenOf = (url: string) => url.split('#/set-password/')[1];
  const describeLink = (token: string) => request(t.http).get(`/account/password-links/${token}`);
  const setPassword = (token: string, password: unknown) =>
    request(t.http).post(`/account/password-links/${token}`).send({ password });
  const invite = (body: object) =>
    request(t.http).post('/admin/accounts').set('Authorization', admin).send(body);

  it('invites someone: the link names them, sets the password once, and does not sign in', async () => {
    const res = await invite({ email: 'Nina@Example.com', name: 'Nina Operadora', role: 'operator' }).expect(
      201,
    );
    expect(res.body.password_link).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:\d+\/console\/#\/set-password\/[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    const token = tokenOf(res.body.password_link.url);
    const info = await describeLink(token).expect(200);
    expect(info.body).toEqual({
      email: 'nina@example.com',
      name: 'Nina Operadora',
      purpose: 'invitation',
      expires_at: res.body.password_link.expires_at,
    });
    // No password yet: signing in fails like any wrong password.
    await request(t.http)
      .post('/account/session')
      .send({ email: 'nina@example.com', password: NEW_PASSWORD })
      .expect(401);
    const set = await setPassword(token, NEW_PASSWORD).expect(204);
    expect(set.headers['set-cookie']).toBeUndefined();
    expectError(await describeLink(token), 404, 'not_found', 'Not Found');
    expectError(await setPassword(token, 'another passphrase'), 404, 'not_found', 'Not Found');
    await signIn(t.http, { email: 'nina@example.com' }, NEW_PASSWORD);
    const [stored] = await t.dataSource.query('SELECT password_hash AS hash FROM accounts');
    expect(stored.hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('refuses a password under 12 or over 256 characters, and the link still works', async () => {
    const { body } = await invite({ email: 'a@example.com', name: 'A', role: 'support' }).expect(201);
    const token = tokenOf(body.password_link.url);
    expect(expectError(await setPassword(token, 'short'), 422, 'invalid_parameter')).toBe(
      'password must be 12 to 256 characters',
    );
    expectError(await setPassword(token, 'x'.repeat(257)), 422, 'invalid_parameter');
    expectError(await setPassword(token, 12345678901234), 422, 'invalid_parameter');
    await setPassword(token, 'x'.repeat(256)).expect(204);
  });

  it('expires after 24 hours', async () => {
    t.clock.set('2026-11-23T12:00:00Z');
    const { body } = await invite({ email: 'b@example.com', name: 'B', role: 'support' }).expect(201);
    const token = tokenOf(body.password_link.url);
    t.clock.advance(24 * HOUR - 1000);
    await describeLink(token).expect(200);
    t.clock.advance(2000);
    expectError(await describeLink(token), 404, 'not_found', 'Not Found');
    expectError(await setPassword(token, NEW_PASSWORD), 404, 'not_found', 'Not Found');
  });

  it('answers 404 for an unknown token', async () => {
    expectError(await describeLink('nope'), 404, 'not_found', 'Not Found');
    expectError(await setPassword('x'.repeat(43), NEW_PASSWORD), 404, 'not_found', 'Not Found');
  });

  it('resets a password: earlier links stop working, and using it ends every session of the account', async () => {
    const account = await createAccount(t);
    const session = await signIn(t.http, account);
    const first = await request(t.http)
      .post(`/admin/accounts/${account.id}/password-link`)
      .set('Authorization', admin)
      .expect(201);
    const second = await request(t.http)
      .post(`/admin/accounts/${account.id}/password-link`)
      .set('Authorization', admin)
      .expect(201);
    expectError(await describeLink(tokenOf(first.body.url)), 404, 'not_found', 'Not Found');
    const token = tokenOf(second.body.url);
    expect((await describeLink(token).expect(200)).body.purpose).toBe('reset');
    // The old password and the session still work until the link is used.
    await request(t.http).get('/account/session').set('Cookie', session.cookie).expect(200);
    await setPassword(token, NEW_PASSWORD).expect(204);
    expectError(
      await request(t.http).get('/account/session').set('Cookie', session.cookie),
      401,
      'invalid_session',
      'Unauthorized',
    );
    await request(t.http)
      .post('/account/session')
      .send({ email: account.email, password: PASSWORD })
      .expect(401);
    await signIn(t.http, account, NEW_PASSWORD);
  });

  it('stops working when its account is disabled', async () => {
    const { body } = await invite({ email: 'c@example.com', name: 'C', role: 'support' }).expect(201);
    await t.dataSource.query('UPDATE accounts SET active = 0');
    expectError(await describeLink(tokenOf(body.password_link.url)), 404, 'not_found', 'Not Found');
  });

  it('lets only one of two simultaneous uses of a link through', async () => {
    const { body } = await invite({ email: 'd@example.com', name: 'D', role: 'support' }).expect(201);
    const token = tokenOf(body.password_link.url);
    const results = await Promise.all([
      setPassword(token, 'first passphrase!'),
      setPassword(token, 'second passphrase'),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([204, 404]);
  });
});
