import request from 'supertest';
import { createAccount, PASSWORD } from './factories/accounts.factory';
import { asSession, sessionCookieOf, signIn } from './support/console';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

const MINUTE = 60_000;

describe('console sessions (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    t.clock.reset();
    await truncateAll(t.dataSource);
  });
  afterAll(() => t.close());

  const login = (email: string, password = PASSWORD) =>
    request(t.http).post('/account/session').send({ email, password });
  const current = (cookie: string) => request(t.http).get('/account/session').set('Cookie', cookie);

  describe('sign-in', () => {
    it('opens a session in an HttpOnly SameSite cookie, whatever the case of the e-mail', async () => {
      const account = await createAccount(t, { role: 'support', name: 'Sara Suporte' });
      const res = await login(account.email.toUpperCase()).expect(200);
      const [cookie] = ([] as string[]).concat(res.headers['set-cookie']);
      expect(cookie).toMatch(/^gis_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(res.body).toEqual({
        account: {
          id: account.id,
          email: account.email,
          name: 'Sara Suporte',
          role: 'support',
          partner_id: null,
          place_ids: [],
          active: true,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          last_login_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        permissions: expect.objectContaining({ deliveries: ['list', 'show', 'redeliver'] }),
      });
      const again = await current(sessionCookieOf(res)).expect(200);
      expect(again.body).toEqual(res.body);
      // Only the token's hash is stored.
      const [stored] = await t.dataSource.query('SELECT token_hash AS tokenHash FROM sessions');
      expect(stored.tokenHash).not.toBe(sessionCookieOf(res).split('=')[1]);
    });

    it('gives one answer for an unknown e-mail, a wrong password, a disabled account and one without a password', async () => {
      const account = await createAccount(t);
      const disabled = await createAccount(t, { active: false });
      const invited = await createAccount(t, { password: null });
      const answers = [
        await login('nobody@example.com'),
        await login(account.email, 'wrong password here'),
        await login(disabled.email),
        await login(invited.email, ''),
      ];
      const details = answers.map((res) => expectError(res, 401, 'invalid_credentials', 'Unauthorized'));
      expect(new Set(details).size).toBe(1);
      expect(details[0]).toBe('The e-mail and password do not match an active account.');
      for (const res of answers) expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a body without e-mail or password', async () => {
      expectError(await request(t.http).post('/account/session').send({}), 422, 'invalid_parameter');
      expectError(
        await request(t.http).post('/account/session').send({ email: 'a@example.com', password: 7 }),
        422,
        'invalid_parameter',
      );
    });

    it('marks the cookie Secure in production', async () => {
      const production = await createTestApp({
        NODE_ENV: 'production',
        JWT_SECRET: 'a-production-jwt-secret',
        ADMIN_API_TOKEN: 'a-production-admin-token',
        KEY_ENCRYPTION_SECRET: 'a-production-key-secret',
        PUBLIC_BASE_URL: 'https://gyms.example.com',
        MEMBER_API_TOKEN: 'a-production-member-token',
      });
      try {
        const account = await createAccount(t);
        const res = await request(production.http)
          .post('/account/session')
          .send({ email: account.email, password: PASSWORD })
          .expect(200);
        expect(([] as string[]).concat(res.headers['set-cookie'])[0]).toMatch(
          /; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
        );
      } finally {
        await production.close();
      }
    });
  });

  describe('the session', () => {
    it('answers invalid_session without a cookie or with an unknown one', async () => {
      expectError(await request(t.http).get('/account/session'), 401, 'invalid_session', 'Unauthorized');
      expectError(await current('gis_session=forged'), 401, 'invalid_session', 'Unauthorized');
    });

    it('signs out with the CSRF token only, and the session is over', async () => {
      const session = await signIn(t.http, await createAccount(t));
      expectError(
        await asSession(t.http, session, 'delete', '/account/session', { csrf: false }),
        403,
        'forbidden',
        'Forbidden',
      );
      expectError(
        await asSession(t.http, session, 'delete', '/account/session', { csrf: false }).set(
          'X-CSRF-Token',
          'not-the-token',
        ),
        403,
        'forbidden',
        'Forbidden',
      );
      await current(session.cookie).expect(200);
      const res = await asSession(t.http, session, 'delete', '/account/session').expect(204);
      expect(([] as string[]).concat(res.headers['set-cookie'])[0]).toMatch(/^gis_session=; Max-Age=0; /);
      expectError(await current(session.cookie), 401, 'invalid_session', 'Unauthorized');
    });

    it('ends after SESSION_IDLE_MINUTES without a request', async () => {
      t.clock.set('2026-11-23T12:00:00Z');
      const session = await signIn(t.http, await createAccount(t));
      t.clock.advance(29 * MINUTE);
      await current(session.cookie).expect(200);
      t.clock.advance(29 * MINUTE);
      await current(session.cookie).expect(200);
      t.clock.advance(30 * MINUTE);
      expectError(await current(session.cookie), 401, 'invalid_session', 'Unauthorized');
      // Ended means gone: going back in time does not bring it back.
      t.clock.advance(-30 * MINUTE);
      expectError(await current(session.cookie), 401, 'invalid_session', 'Unauthorized');
    });

    it('ends 12 hours after sign-in however busy', async () => {
      t.clock.set('2026-11-23T08:00:00Z');
      const session = await signIn(t.http, await createAccount(t));
      for (let elapsed = 20; elapsed < 12 * 60; elapsed += 20) {
        t.clock.advance(20 * MINUTE);
        await current(session.cookie).expect(200);
      }
      t.clock.advance(20 * MINUTE);
      expectError(await current(session.cookie), 401, 'invalid_session', 'Unauthorized');
    });

    it('ends at once when its account is disabled', async () => {
      const account = await createAccount(t);
      const session = await signIn(t.http, account);
      await t.dataSource.query('UPDATE accounts SET active = 0 WHERE id = ?', [account.id]);
      expectError(await current(session.cookie), 401, 'invalid_session', 'Unauthorized');
    });
  });

  describe('failed sign-ins', () => {
    it('are limited per e-mail: 429 with Retry-After, even with the right password, until the window passes', async () => {
      t.clock.set('2026-11-23T12:00:00Z');
      const account = await createAccount(t);
      for (let i = 0; i < 5; i++)
        expectError(await login(account.email, 'wrong password'), 401, 'invalid_credentials', 'Unauthorized');
      const limited = await login(account.email);
      expectError(limited, 429, 'rate_limited', 'Too Many Requests');
      expect(limited.headers['retry-after']).toBe('900');
      t.clock.advance(10 * MINUTE);
      expect((await login(account.email)).headers['retry-after']).toBe('300');
      // Another e-mail from the same address is not held back by this one's failures.
      const other = await createAccount(t);
      await login(other.email).expect(200);
      t.clock.advance(5 * MINUTE + 1000);
      await login(account.email).expect(200);
    });

    it('count an e-mail that names no account the same way, so the answers never tell whether it exists', async () => {
      for (let i = 0; i < 5; i++) await login('ghost@example.com', 'wrong password').expect(401);
      expectError(await login('ghost@example.com'), 429, 'rate_limited', 'Too Many Requests');
    });

    it('are limited per address across e-mails', async () => {
      const account = await createAccount(t);
      for (let i = 0; i < 20; i++) await login(`guess${i}@example.com`, 'wrong password').expect(401);
      const limited = await login(account.email);
      expectError(limited, 429, 'rate_limited', 'Too Many Requests');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('are forgotten for the e-mail after a successful sign-in', async () => {
      const account = await createAccount(t);
      for (let i = 0; i < 4; i++) await login(account.email, 'wrong password').expect(401);
      await login(account.email).expect(200);
      for (let i = 0; i < 4; i++) await login(account.email, 'wrong password').expect(401);
      await login(account.email).expect(200);
    });
  });
});
