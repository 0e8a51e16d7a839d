import request from 'supertest';
import { createAccount, PASSWORD } from './factories/accounts.factory';
import { createBeneficiary, createBenefitPlan, nextCpf } from './factories/beneficiaries.factory';
import {
  confirmationPath,
  createMemberCheckIn,
  memberAuth,
} from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { flat, partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

const AT_ONCE = 24;

type Method = 'post' | 'put' | 'patch' | 'delete';

/** One write route raced: the request number `i` of the 24 sent at once, at the same target. */
interface Race {
  method: Method;
  /** The route as the OpenAPI document names it. */
  route: string;
  /** Sets the target up; answers the request to send `AT_ONCE` times at once. */
  prepare(t: TestApp): Promise<(i: number) => request.Test>;
}

/**
 * Every write route, each with 24 requests at once at one target (the same account, place, code, CPF, link or
 * check-in): whatever the answers, none is a 500. A deadlock between two of them used to be (8 password links
 * at once: 4 to 9 of 24 answered 500 ER_LOCK_DEADLOCK).
 */
describe('every write route raced 24 at once at one target answers, never 500 (e2e)', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();
  const admin = (r: request.Test) => r.set('Authorization', `Bearer ${t.config.adminApiToken}`);
  const http = () => request(t.http);

  async function deliveredTestEvent(bearer: string, placeId: string): Promise<string> {
    await http().post('/partner/webhook/test/CHECKIN').set('Authorization', bearer).expect(202);
    let id = '';
    await eventually(
      async () => {
        const rows: { id: string }[] = await t.dataSource.query(
          "SELECT id FROM webhook_deliveries WHERE place_id = ? AND status = 'delivered'",
          [placeId],
        );
        id = rows[0]?.id ?? '';
        return id !== '';
      },
      15_000,
      'a delivered test event',
    );
    return id;
  }

  async function gymWithWebhook() {
    const gym = await createGym(t);
    const bearer = `Bearer ${await partnerToken(t.http, gym)}`;
    await http()
      .post('/partner/webhook/create')
      .set('Authorization', bearer)
      .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' })
      .expect(201);
    return { ...gym, bearer };
  }

  /** 24 accounts, made one after another (the factory numbers its e-mails as it goes). */
  async function accountsOf(overrides: Parameters<typeof createAccount>[1]) {
    const accounts = [];
    for (let i = 0; i < AT_ONCE; i++) accounts.push(await createAccount(t, overrides));
    return accounts;
  }

  async function session() {
    const account = await createAccount(t, { role: 'operator' });
    const res = await http()
      .post('/account/session')
      .send({ email: account.email, password: PASSWORD })
      .expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    return { cookie, csrf: res.body.csrf_token as string };
  }

  const races: Race[] = [
    // The control panel.
    {
      method: 'post',
      route: '/admin/partners',
      prepare: async () => (i) =>
        admin(
          http()
            .post('/admin/partners')
            .send({ name: `Race ${i}` }),
        ),
    },
    {
      method: 'patch',
      route: '/admin/partners/{id}',
      prepare: async (t) => {
        const { partner } = await createGym(t);
        return (i) =>
          admin(
            http()
              .patch(`/admin/partners/${partner.id}`)
              .send({ name: `Renamed ${i}` }),
          );
      },
    },
    {
      method: 'post',
      route: '/admin/partners/{id}/api-key',
      prepare: async (t) => {
        const { partner } = await createGym(t);
        return () => admin(http().post(`/admin/partners/${partner.id}/api-key`));
      },
    },
    {
      method: 'post',
      route: '/admin/places',
      prepare: async (t) => {
        const { partner } = await createGym(t);
        return (i) =>
          admin(
            http()
              .post('/admin/places')
              .send({ partner_id: partner.id, name: `Place ${i}`, code: i % 2 ? 'RACECODE' : undefined }),
          );
      },
    },
    {
      method: 'patch',
      route: '/admin/places/{id}',
      prepare: async (t) => {
        const { place } = await createGym(t);
        return (i) =>
          admin(
            http()
              .patch(`/admin/places/${place.id}`)
              .send({ name: `Name ${i}`, active: i % 2 === 0 }),
          );
      },
    },
    {
      method: 'post',
      route: '/admin/places/{id}/api-key',
      prepare: async (t) => {
        const { place } = await createGym(t);
        return () => admin(http().post(`/admin/places/${place.id}/api-key`));
      },
    },
    {
      method: 'post',
      route: '/admin/places/{id}/keys/reveal',
      prepare: async (t) => {
        const { place } = await createGym(t);
        return () => admin(http().post(`/admin/places/${place.id}/keys/reveal`));
      },
    },
    {
      method: 'post',
      route: '/admin/places/{id}/plans',
      prepare: async (t) => {
        const { place } = await createGym(t);
        return (i) =>
          admin(
            http()
              .post(`/admin/places/${place.id}/plans`)
              .send({ name: `Plan ${i}`, tier: 1, code: i % 2 ? 'RACEPLAN' : undefined }),
          );
      },
    },
    {
      method: 'delete',
      route: '/admin/places/{id}/plans/{code}',
      prepare: async (t) => {
        const { place, plan } = await createGym(t);
        return () => admin(http().delete(`/admin/places/${place.id}/plans/${plan.code}`));
      },
    },
    {
      method: 'post',
      route: '/admin/benefit-plans',
      prepare: async () => (i) =>
        admin(
          http()
            .post('/admin/benefit-plans')
            .send({ code: `RACE${i % 2}`, name: 'Race', tier: 1, monthly_visit_limit: null }),
        ),
    },
    {
      method: 'patch',
      route: '/admin/benefit-plans/{code}',
      prepare: async (t) => {
        const plan = await createBenefitPlan(t.dataSource);
        return (i) =>
          admin(
            http()
              .patch(`/admin/benefit-plans/${plan.code}`)
              .send({ name: `Gold ${i}`, tier: 1 + (i % 3) }),
          );
      },
    },
    {
      method: 'post',
      route: '/admin/beneficiaries',
      prepare: async (t) => {
        const plan = await createBenefitPlan(t.dataSource);
        const cpf = nextCpf();
        return (i) =>
          admin(
            http()
              .post('/admin/beneficiaries')
              .send({ cpf, name: `Ana ${i}`, benefit_plan_code: plan.code }),
          );
      },
    },
    {
      method: 'post',
      route: '/admin/beneficiaries/bulk',
      prepare: async (t) => {
        const plan = await createBenefitPlan(t.dataSource);
        const cpfs = Array.from({ length: 20 }, () => nextCpf());
        return (i) =>
          admin(
            http()
              .post('/admin/beneficiaries/bulk')
              .send({
                beneficiaries: cpfs.map((cpf, row) => ({
                  cpf,
                  name: `Row ${row} ${i}`,
                  benefit_plan_code: plan.code,
                })),
              }),
          );
      },
    },
    {
      method: 'patch',
      route: '/admin/beneficiaries/{cpf}',
      prepare: async (t) => {
        const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
        return (i) =>
          admin(
            http()
              .patch(`/admin/beneficiaries/${member.cpf}`)
              .send({ name: `Ana ${i}`, active: i % 2 === 0 }),
          );
      },
    },
    {
      method: 'post',
      route: '/admin/places/{id}/webhooks',
      prepare: async (t) => {
        const { place } = await createGym(t);
        return (i) =>
          admin(
            http()
              .post(`/admin/places/${place.id}/webhooks`)
              .send({ webhook_url: receiver.url(`/w${i}`), webhook_type: 'CHECKIN' }),
          );
      },
    },
    {
      method: 'put',
      route: '/admin/places/{id}/webhooks/{type}',
      prepare: async () => {
        const { place } = await gymWithWebhook();
        return (i) =>
          admin(
            http()
              .put(`/admin/places/${place.id}/webhooks/CHECKIN`)
              .send({ webhook_url: receiver.url(`/w${i}`) }),
          );
      },
    },
    {
      method: 'delete',
      route: '/admin/places/{id}/webhooks/{type}',
      prepare: async () => {
        const { place } = await gymWithWebhook();
        return () => admin(http().delete(`/admin/places/${place.id}/webhooks/CHECKIN`));
      },
    },
    {
      method: 'post',
      route: '/admin/places/{id}/webhooks/{type}/test',
      prepare: async () => {
        const { place } = await gymWithWebhook();
        return () => admin(http().post(`/admin/places/${place.id}/webhooks/CHECKIN/test`));
      },
    },
    {
      method: 'post',
      route: '/admin/deliveries/{id}/redeliver',
      prepare: async () => {
        const gym = await gymWithWebhook();
        const id = await deliveredTestEvent(gym.bearer, gym.place.id);
        return () => admin(http().post(`/admin/deliveries/${id}/redeliver`));
      },
    },
    {
      method: 'post',
      route: '/admin/accounts',
      prepare: async () => (i) =>
        admin(
          http()
            .post('/admin/accounts')
            .send({ email: `race${i % 2}@example.com`, name: `Race ${i}`, role: 'support' }),
        ),
    },
    {
      method: 'patch',
      route: '/admin/accounts/{id}',
      prepare: async (t) => {
        const account = await createAccount(t, { role: 'support' });
        return (i) =>
          admin(
            http()
              .patch(`/admin/accounts/${account.id}`)
              .send({ name: `Sam ${i}`, role: i % 2 ? 'support' : 'operator', active: i % 3 !== 0 }),
          );
      },
    },
    {
      method: 'post',
      route: '/admin/accounts/{id}/password-link',
      prepare: async (t) => {
        const account = await createAccount(t, { role: 'support' });
        return () => admin(http().post(`/admin/accounts/${account.id}/password-link`));
      },
    },
    // The console's own routes: sign-in, sign-out and password links of one account.
    {
      method: 'post',
      route: '/account/session',
      prepare: async (t) => {
        const account = await createAccount(t, { role: 'support' });
        return () => http().post('/account/session').send({ email: account.email, password: PASSWORD });
      },
    },
    {
      method: 'delete',
      route: '/account/session',
      prepare: async () => {
        const { cookie, csrf } = await session();
        return () => http().delete('/account/session').set('Cookie', cookie).set('X-CSRF-Token', csrf);
      },
    },
    {
      method: 'post',
      route: '/account/password-links/{token}',
      prepare: async (t) => {
        const account = await createAccount(t, { role: 'support' });
        const link = await admin(http().post(`/admin/accounts/${account.id}/password-link`)).expect(201);
        const token = (link.body.url as string).split('#/set-password/')[1];
        return (i) =>
          http()
            .post(`/account/password-links/${token}`)
            .send({ password: `a long passphrase ${i}` });
      },
    },
    // A gym's own writes.
    {
      method: 'post',
      route: '/partner/auth',
      prepare: async (t) => {
        const gym = await createGym(t);
        return () =>
          http()
            .post('/partner/auth')
            .send({ place_api_key: gym.placeApiKey, partner_api_key: gym.partnerApiKey });
      },
    },
    {
      method: 'post',
      route: '/partner/webhook/create',
      prepare: async (t) => {
        const gym = await createGym(t);
        const bearer = `Bearer ${await partnerToken(t.http, gym)}`;
        return (i) =>
          http()
            .post('/partner/webhook/create')
            .set('Authorization', bearer)
            .send({ webhook_url: receiver.url(`/c${i}`), webhook_type: 'CHECKIN' });
      },
    },
    {
      method: 'put',
      route: '/partner/webhook/update',
      prepare: async () => {
        const { bearer } = await gymWithWebhook();
        return (i) =>
          http()
            .put('/partner/webhook/update')
            .set('Authorization', bearer)
            .send({ webhook_url: receiver.url(`/u${i}`), webhook_type: 'CHECKIN' });
      },
    },
    {
      method: 'delete',
      route: '/partner/webhook/delete/{type}',
      prepare: async () => {
        const { bearer } = await gymWithWebhook();
        return () => http().delete('/partner/webhook/delete/CHECKIN').set('Authorization', bearer);
      },
    },
    {
      method: 'post',
      route: '/partner/webhook/test/{type}',
      prepare: async () => {
        const { bearer } = await gymWithWebhook();
        return () => http().post('/partner/webhook/test/CHECKIN').set('Authorization', bearer);
      },
    },
    {
      method: 'post',
      route: '/partner/webhook/deliveries/{id}/redeliver',
      prepare: async () => {
        const gym = await gymWithWebhook();
        const id = await deliveredTestEvent(gym.bearer, gym.place.id);
        return () =>
          http().post(`/partner/webhook/deliveries/${id}/redeliver`).set('Authorization', gym.bearer);
      },
    },
    // Check-ins, at one beneficiary.
    ...(
      ['/v1/track_usages', '/v1/track_usages/validate', '/v1/track_usages/beneficiaries/code'] as const
    ).map((route): Race => ({
      method: 'post',
      route,
      prepare: async (t) => {
        const gym = await gymWithWebhook();
        const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
        return () =>
          http()
            .post(route)
            .set('x-api-key', gym.placeApiKey)
            .send(flat({ identifier: member.cpf }));
      },
    })),
    {
      method: 'post',
      route: '/partner_app/v1/validate',
      prepare: async (t) => {
        const gym = await createGym(t);
        const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
        return () =>
          http()
            .post('/partner_app/v1/validate')
            .set('x-api-key', gym.placeApiKey)
            .send({ employee_document_number: member.cpf });
      },
    },
    {
      method: 'post',
      route: '/member/v1/check_ins',
      prepare: async (t) => {
        const gym = await gymWithWebhook();
        const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
        return () =>
          http()
            .post('/member/v1/check_ins')
            .set('Authorization', memberAuth(t))
            .send({ type: 'cpf', identifier: member.cpf, service_provider_code: gym.place.code });
      },
    },
    {
      method: 'delete',
      route: '/member/v1/check_ins/{id}',
      prepare: async (t) => {
        const gym = await gymWithWebhook();
        const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
        const checkIn = await createMemberCheckIn(t, {
          identifier: member.cpf,
          service_provider_code: gym.place.code,
        });
        return () => http().delete(`/member/v1/check_ins/${checkIn.id}`).set('Authorization', memberAuth(t));
      },
    },
    {
      method: 'post',
      route: '/api/v1/webhook_confirmations/{token}',
      prepare: async (t) => {
        const gym = await gymWithWebhook();
        const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
        const checkIn = await createMemberCheckIn(t, {
          identifier: member.cpf,
          service_provider_code: gym.place.code,
        });
        const path = await confirmationPath(t, checkIn.id);
        return () => http().post(path);
      },
    },
  ];

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_TEST_EVENTS_PER_MINUTE: '1000' });
    await truncateAll(t.dataSource);
    await receiver.start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  /** Writes of one kind at 24 different targets at once: each locks its own rows, none the others' index gaps. */
  const spread: [name: string, prepare: () => Promise<(i: number) => request.Test>][] = [
    [
      'POST /admin/accounts/{id}/password-link at 24 accounts',
      async () => {
        const accounts = await accountsOf({ role: 'support' });
        return (i) => admin(http().post(`/admin/accounts/${accounts[i].id}/password-link`));
      },
    ],
    [
      'POST /admin/accounts inviting 24 gym accounts with places',
      async () => {
        const gym = await createGym(t);
        return (i) =>
          admin(
            http()
              .post('/admin/accounts')
              .send({
                email: `gym${i}.${Date.now()}@example.com`,
                name: `Gym ${i}`,
                role: 'gym',
                place_ids: [gym.place.id],
              }),
          );
      },
    ],
    [
      'PATCH /admin/accounts/{id} of 24 accounts, places and state',
      async () => {
        const gym = await createGym(t);
        const accounts = await accountsOf({ role: 'gym', placeIds: [gym.place.id] });
        return (i) =>
          admin(
            http()
              .patch(`/admin/accounts/${accounts[i].id}`)
              .send({ place_ids: [gym.place.id], active: i % 2 === 0 }),
          );
      },
    ],
    [
      'POST /account/session of 24 accounts',
      async () => {
        const accounts = await accountsOf({ role: 'support' });
        return (i) => http().post('/account/session').send({ email: accounts[i].email, password: PASSWORD });
      },
    ],
    [
      'POST /account/password-links/{token} of 24 accounts',
      async () => {
        const tokens: string[] = [];
        for (let i = 0; i < AT_ONCE; i++) {
          const account = await createAccount(t, { role: 'support' });
          const link = await admin(http().post(`/admin/accounts/${account.id}/password-link`)).expect(201);
          tokens.push((link.body.url as string).split('#/set-password/')[1]);
        }
        return (i) =>
          http()
            .post(`/account/password-links/${tokens[i]}`)
            .send({ password: `a long passphrase ${i}` });
      },
    ],
  ];

  it('races every write route of the control panel (the document lists no other)', async () => {
    const document = (await http().get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const adminWrites = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((method) => method !== 'get' && route.startsWith('/admin'))
        .map((method) => `${method} ${route}`),
    );
    const raced = races.map((race) => `${race.method} ${race.route}`);
    expect(adminWrites.filter((route) => !raced.includes(route))).toEqual([]);
  });

  it.each(races.map((race) => [`${race.method.toUpperCase()} ${race.route}`, race] as const))(
    '%s: 24 at once, no 500',
    async (_name, race) => {
      const send = await race.prepare(t);
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => send(i)));
      const failures = answers
        .filter((res) => res.status >= 500)
        .map((res) => `${res.status} ${JSON.stringify(res.body?.errors?.[0]?.detail ?? res.text)}`);
      expect(failures).toEqual([]);
      expect(answers.some((res) => res.status < 300)).toBe(true);
    },
  );

  it.each(spread)('%s: no 500, every one done', async (_name, prepare) => {
    const send = await prepare();
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => send(i)));
    expect(answers.map((res) => res.status).filter((status) => status >= 300)).toEqual([]);
  });
});
