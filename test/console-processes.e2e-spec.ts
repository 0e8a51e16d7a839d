import request from 'supertest';
import { createAccount } from './factories/accounts.factory';
import { ConsoleSession, signIn } from './support/console';
import { expectError } from './support/http';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

/**
 * Two real service processes on one database: a session, an invitation or a reset made through one works
 * through the other, and after a restart.
 */
describe('console sessions across processes and restarts (e2e)', () => {
  let t: TestApp;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let urlA: string;
  let urlB: string;
  let portA: number;

  async function start(port: number): Promise<ServiceProcess> {
    const service = new ServiceProcess({ PORT: String(port), LOG_LEVEL: 'warn' });
    await service.waitUntilListening(60_000);
    return service;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await truncateAll(t.dataSource);
    [portA, urlB] = [await freePort(), `http://127.0.0.1:${await freePort()}`];
    urlA = `http://127.0.0.1:${portA}`;
    [a, b] = await Promise.all([start(portA), start(Number(new URL(urlB).port))]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await t.close();
  });

  const current = (url: string, session: ConsoleSession) =>
    request(url).get('/account/session').set('Cookie', session.cookie);

  it('keeps a session, an invitation and a reset working across processes and a restart', async () => {
    const operator = await createAccount(t, { role: 'operator' });
    const session = await signIn(urlA, operator);
    await current(urlB, session).expect(200);
    await request(urlB).get('/admin/partners').set('Cookie', session.cookie).expect(200);

    // An invitation made through B, read and used through A.
    const invited = await request(urlB)
      .post('/admin/accounts')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrf)
      .send({ email: 'sam@example.com', name: 'Sam Support', role: 'support' })
      .expect(201);
    const invitation = invited.body.password_link.url.split('#/set-password/')[1];
    // A reset link for the operator, made through A before the restart and used after it.
    const reset = (
      await request(urlA)
        .post(`/admin/accounts/${operator.id}/password-link`)
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrf)
        .expect(201)
    ).body.url.split('#/set-password/')[1];

    await a.stop();
    a = await start(portA);

    await current(urlA, session).expect(200);
    await request(urlA).get(`/account/password-links/${invitation}`).expect(200);
    await request(urlA)
      .post(`/account/password-links/${invitation}`)
      .send({ password: 'sam sets a passphrase' })
      .expect(204);
    const support = await signIn(urlB, { email: 'sam@example.com' }, 'sam sets a passphrase');
    await current(urlA, support).expect(200);

    // The reset, used through B, ends the operator's session in both processes at once.
    await request(urlB)
      .post(`/account/password-links/${reset}`)
      .send({ password: 'a new operator phrase' })
      .expect(204);
    expectError(await current(urlA, session), 401, 'invalid_session', 'Unauthorized');
    expectError(await current(urlB, session), 401, 'invalid_session', 'Unauthorized');
    const again = await signIn(urlA, operator, 'a new operator phrase');

    // Disabling through A ends the support account's session in B at once; signing out through B ends A's.
    await request(urlA)
      .patch(`/admin/accounts/${support.account.id}`)
      .set('Cookie', again.cookie)
      .set('X-CSRF-Token', again.csrf)
      .send({ active: false })
      .expect(200);
    expectError(await current(urlB, support), 401, 'invalid_session', 'Unauthorized');
    await request(urlB)
      .delete('/account/session')
      .set('Cookie', again.cookie)
      .set('X-CSRF-Token', again.csrf)
      .expect(204);
    expectError(await current(urlA, again), 401, 'invalid_session', 'Unauthorized');
  }, 180_000);

  it('counts failed sign-ins of both processes together', async () => {
    const account = await createAccount(t);
    for (let i = 0; i < 5; i++) {
      await request(i % 2 === 0 ? urlA : urlB)
        .post('/account/session')
        .send({ email: account.email, password: 'wrong password' })
        .expect(401);
    }
    for (const url of [urlA, urlB]) {
      const limited = await request(url)
        .post('/account/session')
        .send({ email: account.email, password: 'x' });
      expectError(limited, 429, 'rate_limited', 'Too Many Requests');
    }
  });
});
