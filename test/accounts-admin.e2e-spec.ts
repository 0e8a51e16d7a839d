import request from 'supertest';
import { createAccount } from './factories/accounts.factory';
import { createGym, createPlace } from './factories/partners.factory';
import { asSession, signIn } from './support/console';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('accounts admin (e2e)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
    admin = `Bearer ${t.config.adminApiToken}`;
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  const post = (path: string, body: object = {}) =>
    request(t.http).post(path).set('Authorization', admin).send(body);
  const patch = (path: string, body: object) =>
    request(t.http).patch(path).set('Authorization', admin).send(body);
  const get = (path: string) => request(t.http).get(path).set('Authorization', admin);

  it('invites a gym account of a chain or of listed places, and shows it', async () => {
    const gym = await createGym(t);
    const other = await createPlace(t, gym.partner);
    const chain = await post('/admin/accounts', {
      email: ' Ana@Acme.Example ',
      name: 'Ana',
      role: 'gym',
      partner_id: gym.partner.id,
    }).expect(201);
    expect(chain.body.account).toEqual({
      id: expect.any(Number),
      email: 'ana@acme.example',
      name: 'Ana',
      role: 'gym',
      partner_id: gym.partner.id,
      place_ids: [],
      active: true,
      created_at: expect.any(String),
      last_login_at: null,
    });
    const listed = await post('/admin/accounts', {
      email: 'bia@acme.example',
      name: 'Bia',
      role: 'gym',
      place_ids: [gym.place.id, other.place.id, gym.place.id],
    }).expect(201);
    expect(listed.body.account.place_ids).toEqual([gym.place.id, other.place.id].sort());
    expect((await get(`/admin/accounts/${listed.body.account.id}`).expect(200)).body).toEqual(
      listed.body.account,
    );
  });

  it('refuses bad invitations and changes nothing', async () => {
    const gym = await createGym(t);
    await createAccount(t, { email: 'taken@example.com' });
    const refusals: [object, string][] = [
      [
        { email: 'TAKEN@example.com', name: 'X', role: 'support' },
        'email taken@example.com already belongs to an account',
      ],
      [{ email: 'not-an-email', name: 'X', role: 'support' }, 'email must be an email address'],
      [{ email: 'a@example.com', name: ' ', role: 'support' }, 'name must not be blank'],
      [{ email: 'a@example.com', name: 'X', role: 'admin' }, 'role must be one of: operator, support, gym'],
      [
        { email: 'a@example.com', name: 'X', role: 'gym' },
        'a gym account needs partner_id (a whole chain) or place_ids (listed places)',
      ],
      [
        {
          email: 'a@example.com',
          name: 'X',
          role: 'gym',
          partner_id: gym.partner.id,
          place_ids: [gym.place.id],
        },
        'a gym account has partner_id or place_ids, not both',
      ],
      [
        { email: 'a@example.com', name: 'X', role: 'support', partner_id: gym.partner.id },
        'only a gym account has partner_id or place_ids',
      ],
      [
        { email: 'a@example.com', name: 'X', role: 'gym', partner_id: 999999 },
        'partner_id 999999 does not exist',
      ],
      [
        { email: 'a@example.com', name: 'X', role: 'gym', place_ids: ['nope'] },
        'place_ids: place nope does not exist',
      ],
      [{ email: 'a@example.com', name: 'X', role: 'gym', place_ids: 'x' }, 'place_ids must be an array'],
      [{ email: 'a@example.com', name: 'X', role: 'gym', partner_id: '1' }, 'partner_id must be an integer'],
    ];
    for (const [body, detail] of refusals) {
      expect({
        body,
        detail: expectError(await post('/admin/accounts', body), 422, 'invalid_parameter'),
      }).toEqual({
        body,
        detail,
      });
    }
    expect((await get('/admin/accounts').expect(200)).body.total).toBe(1);
  });

  it('lists accounts by e-mail, searched and filtered by role', async () => {
    await createAccount(t, { email: 'zoe@example.com', name: 'Zoe', role: 'support' });
    await createAccount(t, { email: 'ana@example.com', name: 'Ana Lima', role: 'operator' });
    await createAccount(t, { email: 'bob@example.com', name: 'Bob', role: 'support' });
    const emails = async (query: string) =>
      (await get(`/admin/accounts${query}`).expect(200)).body.data.map((a: { email: string }) => a.email);
    expect(await emails('')).toEqual(['ana@example.com', 'bob@example.com', 'zoe@example.com']);
    expect(await emails('?role=support')).toEqual(['bob@example.com', 'zoe@example.com']);
    expect(await emails('?q=lima')).toEqual(['ana@example.com']);
    expect(await emails('?q=ZOE')).toEqual(['zoe@example.com']);
    expect((await get('/admin/accounts?page_size=1&page=2').expect(200)).body).toMatchObject({
      data: [{ email: 'bob@example.com' }],
      page: 2,
      page_size: 1,
      total: 3,
    });
    expectError(await get('/admin/accounts?role=root'), 422, 'invalid_parameter');
    expectError(await get('/admin/accounts/999'), 404, 'not_found', 'Not Found');
    expectError(await get('/admin/accounts/abc'), 404, 'not_found', 'Not Found');
  });

  it('disables an account: its sessions end at once, and it can no longer sign in until enabled', async () => {
    const account = await createAccount(t, { role: 'support' });
    const session = await signIn(t.http, account);
    const disabled = await patch(`/admin/accounts/${account.id}`, { active: false }).expect(200);
    expect(disabled.body.active).toBe(false);
    expectError(
      await asSession(t.http, session, 'get', '/account/session'),
      401,
      'invalid_session',
      'Unauthorized',
    );
    const [{ sessions }] = await t.dataSource.query('SELECT COUNT(*) AS sessions FROM sessions');
    expect(Number(sessions)).toBe(0);
    expectError(await post(`/admin/accounts/${account.id}/password-link`), 422, 'invalid_parameter');
    await request(t.http)
      .post('/account/session')
      .send({ email: account.email, password: 'correct horse battery staple' })
      .expect(401);
    await patch(`/admin/accounts/${account.id}`, { active: true }).expect(200);
    await signIn(t.http, account);
  });

  it('changes role and scope: leaving gym clears the scope, becoming gym needs one', async () => {
    const gym = await createGym(t);
    const account = await createAccount(t, { role: 'gym', placeIds: [gym.place.id] });
    const chain = await patch(`/admin/accounts/${account.id}`, { partner_id: gym.partner.id }).expect(200);
    expect(chain.body).toMatchObject({ partner_id: gym.partner.id, place_ids: [] });
    const renamed = await patch(`/admin/accounts/${account.id}`, { name: 'Renamed' }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', partner_id: gym.partner.id });
    const support = await patch(`/admin/accounts/${account.id}`, { role: 'support' }).expect(200);
    expect(support.body).toMatchObject({ role: 'support', partner_id: null, place_ids: [] });
    expectError(await patch(`/admin/accounts/${account.id}`, { role: 'gym' }), 422, 'invalid_parameter');
    const back = await patch(`/admin/accounts/${account.id}`, {
      role: 'gym',
      place_ids: [gym.place.id],
    }).expect(200);
    expect(back.body).toMatchObject({ role: 'gym', partner_id: null, place_ids: [gym.place.id] });
    expectError(await patch(`/admin/accounts/${account.id}`, { place_ids: [] }), 422, 'invalid_parameter');
    expectError(await patch(`/admin/accounts/${account.id}`, { active: 'no' }), 422, 'invalid_parameter');
    expectError(await patch(`/admin/accounts/${account.id}`, { name: null }), 422, 'invalid_parameter');
    expectError(await patch('/admin/accounts/999', { name: 'X' }), 404, 'not_found', 'Not Found');
    expect((await get(`/admin/accounts/${account.id}`).expect(200)).body).toEqual(back.body);
  });

  it('keeps an operator from disabling or demoting their own account', async () => {
    const me = await createAccount(t, { role: 'operator' });
    const session = await signIn(t.http, me);
    const selfChange = (body: object) =>
      asSession(t.http, session, 'patch', `/admin/accounts/${me.id}`).send(body);
    expect(expectError(await selfChange({ active: false }), 422, 'invalid_parameter')).toBe(
      'you cannot disable your own account or change its role',
    );
    expectError(await selfChange({ role: 'support' }), 422, 'invalid_parameter');
    await selfChange({ name: 'Still me' }).expect(200);
  });
});
