import request from 'supertest';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createAccount } from './factories/accounts.factory';
import { createGym } from './factories/partners.factory';
import { signIn } from './support/console';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('queue dashboard with console sessions (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  const retryFailed = `/admin/queues/api/queues/${WEBHOOK_QUEUE}/retry/failed`;

  it('opens for an operator’s session, who may act on jobs with the CSRF token', async () => {
    const operator = await signIn(t.http, await createAccount(t, { role: 'operator' }));
    const page = await request(t.http).get('/admin/queues').set('Cookie', operator.cookie).expect(200);
    expect(page.text).toContain('<html');
    const api = await request(t.http)
      .get('/admin/queues/api/queues')
      .set('Cookie', operator.cookie)
      .expect(200);
    expect(JSON.stringify(api.body)).toContain(WEBHOOK_QUEUE);
    expect(api.body.queues[0].readOnlyMode).toBe(false);
    expectError(
      await request(t.http).put(retryFailed).set('Cookie', operator.cookie),
      403,
      'forbidden',
      'Forbidden',
    );
    const acted = await request(t.http)
      .put(retryFailed)
      .set('Cookie', operator.cookie)
      .set('X-CSRF-Token', operator.csrf);
    expect(acted.status).toBeLessThan(300);
  });

  it('lets support look but not act (the dashboard shows no actions), and keeps gym accounts and ended sessions out', async () => {
    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    const looked = await request(t.http)
      .get('/admin/queues/api/queues')
      .set('Cookie', support.cookie)
      .expect(200);
    expect(looked.body.queues.map((queue: { readOnlyMode: boolean }) => queue.readOnlyMode)).toEqual([true]);
    expectError(
      await request(t.http).put(retryFailed).set('Cookie', support.cookie).set('X-CSRF-Token', support.csrf),
      403,
      'forbidden',
      'Forbidden',
    );
    const gym = await createGym(t);
    const gymSession = await signIn(
      t.http,
      await createAccount(t, { role: 'gym', partnerId: gym.partner.id }),
    );
    expectError(
      await request(t.http).get('/admin/queues').set('Cookie', gymSession.cookie),
      403,
      'forbidden',
      'Forbidden',
    );
    expectError(
      await request(t.http).get('/admin/queues').set('Cookie', 'gis_session=ended'),
      401,
      'invalid_session',
      'Unauthorized',
    );
    // Basic auth still works for automation.
    await request(t.http).get('/admin/queues/api/queues').auth('admin', t.config.adminApiToken).expect(200);
    const none = await request(t.http).get('/admin/queues').expect(401);
    expect(none.headers['www-authenticate']).toContain('Basic');
  });
});
