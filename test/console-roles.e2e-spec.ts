import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { KeyVault } from '../src/common/crypto/key-vault';
import { WebhooksRepository } from '../src/modules/webhooks/webhooks.repository';
import { createAccount } from './factories/accounts.factory';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym, createPlace } from './factories/partners.factory';
import { asSession, ConsoleSession, signIn } from './support/console';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Route = [Method, string, object?];

const MASKED_KEY = /^pl?t?k_[A-Za-z0-9_-]{4}…[A-Za-z0-9_-]{4}$/;
const MASKED_CPF = /^\d{3}\.\*\*\*\.\*\*\*-\d{2}$/;

describe('console roles and scopes (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  /** Two chains: ours with two places (one with a visit), and another one. */
  async function world() {
    const ours = await createGym(t, { name: 'Acme Paulista' });
    const second = await createPlace(t, ours.partner, { name: 'Acme Pinheiros' });
    const theirs = await createGym(t, { name: 'Other Gym' });
    const benefitPlan = await createBenefitPlan(t.dataSource, { code: 'GOLD' });
    const member = await createBeneficiary(t.dataSource, benefitPlan);
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', ours.placeApiKey)
      .send({ data: { type: 'track_usage', attributes: { type: 'cpf', identifier: member.cpf } } })
      .expect(204);
    return { ours, second, theirs, member };
  }

  const call = (session: ConsoleSession, [method, path, body]: Route) =>
    asSession(t.http, session, method, path).send(body ?? {});

  describe('what the console may offer (GET /account/session permissions)', () => {
    const permissionsOf = async (overrides: Parameters<typeof createAccount>[1]) => {
      const session = await signIn(t.http, await createAccount(t, overrides));
      const answer = await asSession(t.http, session, 'get', '/account/session').expect(200);
      return answer.body.permissions as Record<string, string[]>;
    };

    it('gives operators every action the service has, and deletes only where it has one', async () => {
      const operator = await permissionsOf({ role: 'operator' });
      expect(operator.places).toEqual(['list', 'show', 'create', 'edit', 'reveal', 'rotate']);
      expect(operator.accounts).toEqual(['list', 'create', 'edit']);
      expect(operator['place-plans']).toEqual(['list', 'create', 'delete']);
      expect(operator['partner-key']).toEqual(['reveal', 'rotate']);
      const deletable = Object.entries(operator).filter(([, actions]) => actions.includes('delete'));
      expect(deletable.map(([resource]) => resource)).toEqual(['place-plans', 'place-webhooks']);
    });

    it('lets support read and redeliver, never reveal, rotate or change', async () => {
      expect(await permissionsOf({ role: 'support' })).toEqual({
        places: ['list', 'show'],
        'place-plans': ['list'],
        'place-visits': ['list'],
        'place-app-check-ins': ['list'],
        'place-webhooks': ['list'],
        partners: ['list', 'show'],
        'benefit-plans': ['list'],
        beneficiaries: ['list', 'show'],
        'beneficiary-visits': ['list'],
        'beneficiary-check-ins': ['list'],
        visits: ['list'],
        deliveries: ['list', 'show', 'redeliver'],
      });
    });

    it('gives gym staff their integration section, and the partner key only to chain accounts', async () => {
      const { ours, second } = await world();
      const section = {
        places: ['list', 'show', 'reveal', 'rotate'],
        'place-plans': ['list'],
        'place-visits': ['list'],
        'place-app-check-ins': ['list'],
        'place-webhooks': ['list', 'create', 'edit', 'delete', 'test'],
        deliveries: ['list', 'show', 'redeliver'],
      };
      expect(await permissionsOf({ role: 'gym', placeIds: [second.place.id] })).toEqual(section);
      expect(await permissionsOf({ role: 'gym', partnerId: ours.partner.id })).toEqual({
        ...section,
        'partner-key': ['reveal', 'rotate'],
      });
    });
  });

  describe('with a session', () => {
    it('takes an operator everywhere, with the CSRF token or the service’s own Origin on changes', async () => {
      const session = await signIn(t.http, await createAccount(t, { role: 'operator' }));
      const created = await call(session, ['post', '/admin/partners', { name: 'By session' }]).expect(201);
      expect(created.body.partner_api_key).toMatch(/^ptk_[A-Za-z0-9_-]{32}$/);
      const noToken = () =>
        asSession(t.http, session, 'post', '/admin/partners', { csrf: false }).send({ name: 'X' });
      expect(expectError(await noToken(), 403, 'forbidden', 'Forbidden')).toContain('X-CSRF-Token');
      expectError(await noToken().set('Origin', 'https://evil.example.com'), 403, 'forbidden', 'Forbidden');
      await noToken().set('Origin', t.config.publicBaseUrl).expect(201);
      // Reads need no token.
      await asSession(t.http, session, 'get', `/admin/partners/${created.body.id}`, { csrf: false }).expect(
        200,
      );
    });

    it('lets an Authorization header win over the cookie: a wrong token is refused even with a session', async () => {
      const session = await signIn(t.http, await createAccount(t));
      expectError(
        await asSession(t.http, session, 'get', '/admin/partners').set('Authorization', 'Bearer wrong'),
        401,
        'invalid_token',
        'Unauthorized',
      );
      await asSession(t.http, session, 'get', '/admin/partners')
        .set('Authorization', `Bearer ${t.config.adminApiToken}`)
        .expect(200);
    });

    it('answers invalid_session for an ended session and invalid_token without any credentials', async () => {
      expectError(
        await request(t.http).get('/admin/partners').set('Cookie', 'gis_session=ended'),
        401,
        'invalid_session',
        'Unauthorized',
      );
      expectError(await request(t.http).get('/admin/partners'), 401, 'invalid_token', 'Unauthorized');
    });
  });

  describe('support', () => {
    it('reads everything with keys and CPFs masked', async () => {
      const { ours, member } = await world();
      const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
      const get = (path: string) => asSession(t.http, support, 'get', path).expect(200);

      const partner = (await get(`/admin/partners/${ours.partner.id}`)).body;
      expect(partner.partner_api_key).toMatch(MASKED_KEY);
      expect(partner.places.map((p: { place_api_key: string }) => p.place_api_key)).toEqual([
        expect.stringMatching(MASKED_KEY),
        expect.stringMatching(MASKED_KEY),
      ]);
      expect(ours.partnerApiKey.startsWith(partner.partner_api_key.split('…')[0])).toBe(true);
      const place = (await get(`/admin/places/${ours.place.id}`)).body;
      expect(place.place_api_key).toMatch(MASKED_KEY);
      expect(place.plans).toHaveLength(1);
      expect((await get(`/admin/places/${ours.place.id}/track-usages`)).body.data[0].cpf).toMatch(MASKED_CPF);
      expect((await get('/admin/visits')).body.data[0].cpf).toMatch(MASKED_CPF);
      expect((await get('/admin/beneficiaries')).body.data[0].cpf).toMatch(MASKED_CPF);
      expect((await get(`/admin/beneficiaries/${member.cpf}`)).body.cpf).toBe(
        `${member.cpf.slice(0, 3)}.***.***-${member.cpf.slice(9)}`,
      );
      expect((await get('/admin/partners')).body.total).toBe(2);
      expect((await get('/admin/places')).body.total).toBe(3);
      expect((await get('/admin/benefit-plans')).body).toHaveLength(1);
      const raw = JSON.stringify([partner, place]);
      expect(raw).not.toContain(ours.placeApiKey);
      expect(raw).not.toContain(ours.partnerApiKey);
    });

    it('is refused every change, key reveal and the accounts and audit routes (403), and nothing changes', async () => {
      const { ours, member } = await world();
      const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
      const place = ours.place.id;
      const refused: Route[] = [
        ['post', '/admin/partners', { name: 'X' }],
        ['post', `/admin/partners/${ours.partner.id}/api-key`],
        ['post', '/admin/places', { partner_id: ours.partner.id, name: 'X' }],
        ['patch', `/admin/places/${place}`, { name: 'X' }],
        ['post', `/admin/places/${place}/api-key`],
        ['post', `/admin/places/${place}/keys/reveal`],
        ['post', `/admin/places/${place}/plans`, { name: 'X', tier: 1 }],
        ['delete', `/admin/places/${place}/plans/${ours.plan.code}`],
        ['post', '/admin/benefit-plans', { code: 'X', name: 'X', tier: 1, monthly_visit_limit: null }],
        ['patch', '/admin/benefit-plans/GOLD', { name: 'X' }],
        ['post', '/admin/beneficiaries', { cpf: '11144477735', name: 'X', benefit_plan_code: 'GOLD' }],
        ['post', '/admin/beneficiaries/bulk', { beneficiaries: [] }],
        ['patch', `/admin/beneficiaries/${member.cpf}`, { active: false }],
        ['get', '/admin/accounts'],
        ['post', '/admin/accounts', { email: 'x@example.com', name: 'X', role: 'operator' }],
        ['get', '/admin/accounts/1'],
        ['patch', '/admin/accounts/1', { active: false }],
        ['post', '/admin/accounts/1/password-link'],
      ];
      for (const route of refused) {
        expect({ route, label: (await call(support, route)).body.errors?.[0]?.label }).toEqual({
          route,
          label: 'forbidden',
        });
      }
      expectError(
        await call(support, ['post', `/admin/places/${place}/api-key`]),
        403,
        'forbidden',
        'Forbidden',
      );
      const vault = t.app.get(KeyVault);
      const [stored] = await t.dataSource.query(
        'SELECT api_key_ciphertext AS sealed, name FROM places WHERE id = ?',
        [place],
      );
      expect({ key: vault.open(stored.sealed), name: stored.name }).toEqual({
        key: ours.placeApiKey,
        name: 'Acme Paulista',
      });
      const [{ partners }] = await t.dataSource.query('SELECT COUNT(*) AS partners FROM partners');
      expect(Number(partners)).toBe(2);
    });
  });

  describe('gym accounts', () => {
    /** A failed delivery of a place's subscription, written as the outbox writes it. */
    async function failedDelivery(placeId: string): Promise<string> {
      const subscriptionId = randomUUID();
      await t.dataSource.query(
        `INSERT INTO webhook_subscriptions (id, place_id, type, url, secret_ciphertext, active)
         VALUES (?, ?, 'CHECKIN', 'https://erp.example.com/hooks', 'v1.x.y.z', 1)`,
        [subscriptionId, placeId],
      );
      const deliveryId = await t.app.get(WebhooksRepository).insertEvent(t.dataSource, {
        id: `evt_${randomUUID().replace(/-/g, '')}`,
        placeId,
        type: 'TEST',
        payload: '{}',
        createdAt: new Date(),
        subscriptionId,
        url: 'https://erp.example.com/hooks',
      });
      await t.dataSource.query(
        "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = ?",
        [deliveryId],
      );
      await t.dataSource.query('DELETE FROM webhook_subscriptions WHERE id = ?', [subscriptionId]);
      return deliveryId;
    }

    /** Every route a gym account may call, for one place, its partner and one of its deliveries, with the answer it gets. */
    const gymRoutes = (placeId: string, partnerId: number, deliveryId: string): [...Route, number][] => [
      ['get', `/admin/places/${placeId}`, undefined, 200],
      ['get', `/admin/places/${placeId}/track-usages`, undefined, 200],
      ['get', `/admin/places/${placeId}/check-ins`, undefined, 200],
      ['post', `/admin/places/${placeId}/keys/reveal`, undefined, 200],
      ['post', `/admin/places/${placeId}/api-key`, undefined, 201],
      [
        'post',
        `/admin/places/${placeId}/webhooks`,
        { webhook_url: 'https://erp.example.com/a', webhook_type: 'CHECKIN' },
        201,
      ],
      ['get', `/admin/places/${placeId}/webhooks`, undefined, 200],
      ['put', `/admin/places/${placeId}/webhooks/CHECKIN`, { webhook_url: 'https://erp.example.com/b' }, 200],
      ['post', `/admin/places/${placeId}/webhooks/CHECKIN/test`, undefined, 202],
      ['delete', `/admin/places/${placeId}/webhooks/CHECKIN`, undefined, 200],
      ['get', `/admin/deliveries/${deliveryId}`, undefined, 200],
      ['post', `/admin/deliveries/${deliveryId}/redeliver`, undefined, 202],
      ['post', `/admin/partners/${partnerId}/api-key`, undefined, 201],
    ];

    it('reach their own places through every gym route, and nothing of another place or partner (404)', async () => {
      const { ours, second, theirs } = await world();
      const chain = await signIn(t.http, await createAccount(t, { role: 'gym', partnerId: ours.partner.id }));
      const listed = await signIn(
        t.http,
        await createAccount(t, { role: 'gym', placeIds: [second.place.id] }),
      );
      const [ourDelivery, secondDelivery, theirDelivery] = [
        await failedDelivery(ours.place.id),
        await failedDelivery(second.place.id),
        await failedDelivery(theirs.place.id),
      ];
      const vault = t.app.get(KeyVault);
      const theirState = async () => ({
        keys: (
          await t.dataSource.query(
            `SELECT p.api_key_ciphertext AS place, pt.api_key_ciphertext AS partner
             FROM places p JOIN partners pt ON pt.id = p.partner_id WHERE p.id = ?`,
            [theirs.place.id],
          )
        ).map((row: { place: string; partner: string }) => [vault.open(row.place), vault.open(row.partner)]),
        subscriptions: await t.dataSource.query('SELECT id FROM webhook_subscriptions WHERE place_id = ?', [
          theirs.place.id,
        ]),
        deliveries: await t.dataSource.query(
          'SELECT id, status, redeliveries FROM webhook_deliveries WHERE place_id = ?',
          [theirs.place.id],
        ),
      });
      const before = await theirState();
      const expectNotFound = async (session: ConsoleSession, route: Route) => {
        const res = await call(session, route);
        expect({ route, status: res.status, label: res.body.errors?.[0]?.label }).toEqual({
          route,
          status: 404,
          label: 'not_found',
        });
      };
      for (const session of [chain, listed]) {
        for (const [method, path, body] of gymRoutes(theirs.place.id, theirs.partner.id, theirDelivery)) {
          await expectNotFound(session, [method, path, body]);
        }
      }
      // The listed-places account reaches neither its partner's key nor its partner's other place.
      for (const [method, path, body] of gymRoutes(ours.place.id, ours.partner.id, ourDelivery)) {
        await expectNotFound(listed, [method, path, body]);
      }
      expect(await theirState()).toEqual(before);
      expect(before.keys).toEqual([[theirs.placeApiKey, theirs.partnerApiKey]]);

      for (const [method, path, body, status] of gymRoutes(ours.place.id, ours.partner.id, ourDelivery)) {
        const res = await call(chain, [method, path, body]);
        expect({ method, path, status: res.status }).toEqual({ method, path, status });
      }
      for (const [method, path, body, status] of gymRoutes(
        second.place.id,
        ours.partner.id,
        secondDelivery,
      ).slice(0, -1)) {
        const res = await call(listed, [method, path, body]);
        expect({ method, path, status: res.status }).toEqual({ method, path, status });
      }
    });

    it('see their places only, keys masked until revealed, and the partner key only as a chain account', async () => {
      const { ours, second, theirs } = await world();
      const chain = await signIn(t.http, await createAccount(t, { role: 'gym', partnerId: ours.partner.id }));
      const listed = await signIn(
        t.http,
        await createAccount(t, { role: 'gym', placeIds: [second.place.id] }),
      );
      const names = async (session: ConsoleSession, query = '') =>
        (await asSession(t.http, session, 'get', `/admin/places${query}`).expect(200)).body.data.map(
          (place: { name: string }) => place.name,
        );
      expect(await names(chain)).toEqual(['Acme Paulista', 'Acme Pinheiros']);
      expect(await names(chain, `?partner_id=${theirs.partner.id}`)).toEqual([]);
      expect(await names(listed)).toEqual(['Acme Pinheiros']);

      const place = (await asSession(t.http, chain, 'get', `/admin/places/${ours.place.id}`).expect(200))
        .body;
      expect(place.place_api_key).toMatch(MASKED_KEY);
      const visits = (
        await asSession(t.http, chain, 'get', `/admin/places/${ours.place.id}/track-usages`).expect(200)
      ).body;
      expect(visits.data[0].cpf).toMatch(/^\d{11}$/);

      expect(
        (await asSession(t.http, chain, 'post', `/admin/places/${ours.place.id}/keys/reveal`).expect(200))
          .body,
      ).toEqual({
        place_api_key: ours.placeApiKey,
        partner_api_key: ours.partnerApiKey,
      });
      const revealed = (
        await asSession(t.http, listed, 'post', `/admin/places/${second.place.id}/keys/reveal`).expect(200)
      ).body;
      expect(revealed).toEqual({ place_api_key: second.placeApiKey, partner_api_key: null });

      const rotated = (
        await asSession(t.http, listed, 'post', `/admin/places/${second.place.id}/api-key`).expect(201)
      ).body.place_api_key;
      expect(rotated).toMatch(/^plk_[A-Za-z0-9_-]{32}$/);
      await request(t.http)
        .post('/partner/auth')
        .send({ place_api_key: rotated, partner_api_key: ours.partnerApiKey })
        .expect(201);
    });

    it('are refused every route outside the integration section (403)', async () => {
      const { ours, member } = await world();
      const chain = await signIn(t.http, await createAccount(t, { role: 'gym', partnerId: ours.partner.id }));
      const refused: Route[] = [
        ['get', '/admin/partners'],
        ['get', `/admin/partners/${ours.partner.id}`],
        ['post', '/admin/places', { partner_id: ours.partner.id, name: 'X' }],
        ['patch', `/admin/places/${ours.place.id}`, { name: 'X' }],
        ['post', `/admin/places/${ours.place.id}/plans`, { name: 'X', tier: 1 }],
        ['delete', `/admin/places/${ours.place.id}/plans/${ours.plan.code}`],
        ['get', '/admin/benefit-plans'],
        ['get', '/admin/beneficiaries'],
        ['get', `/admin/beneficiaries/${member.cpf}`],
        ['get', '/admin/visits'],
        ['get', '/admin/accounts'],
      ];
      for (const route of refused) {
        expect({ route, label: (await call(chain, route)).body.errors?.[0]?.label }).toEqual({
          route,
          label: 'forbidden',
        });
      }
    });

    it('lose what a change of scope takes away at once, in the session they have', async () => {
      const { ours, theirs } = await world();
      const account = await createAccount(t, { role: 'gym', partnerId: ours.partner.id });
      const session = await signIn(t.http, account);
      await asSession(t.http, session, 'get', `/admin/places/${ours.place.id}`).expect(200);
      await request(t.http)
        .patch(`/admin/accounts/${account.id}`)
        .set('Authorization', `Bearer ${t.config.adminApiToken}`)
        .send({ partner_id: theirs.partner.id })
        .expect(200);
      await asSession(t.http, session, 'get', `/admin/places/${ours.place.id}`).expect(404);
      await asSession(t.http, session, 'get', `/admin/places/${theirs.place.id}`).expect(200);
    });
  });
});
