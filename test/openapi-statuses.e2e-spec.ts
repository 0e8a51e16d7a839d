import request from 'supertest';
import { createAccount, PASSWORD } from './factories/accounts.factory';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import {
  confirmationPath,
  createMemberCheckIn,
  memberAuth,
  subscribeCheckIns,
} from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

interface Operation {
  security?: Record<string, unknown>[];
  requestBody?: {
    content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }>;
  };
  responses: Record<string, unknown>;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Credentials of each security scheme of the document, as headers. */
type Credentials = Record<string, Record<string, string>>;

/** One request sent to an operation, named for the failure message. */
interface Probe {
  name: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  times?: number;
}

/**
 * Walks every operation of the OpenAPI document through the refusals a client meets (no credentials, a body
 * that is not an object, an empty body, the documented examples sent again and again past the rate limits,
 * unknown and over-long path parameters, a malformed %-encoding, too many query parameters, oversized headers,
 * a console session without its CSRF token or of a role that may not) and checks that every status answered
 * is one the document declares for that operation.
 */
describe('The OpenAPI document declares every status each operation answers (e2e)', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();
  let document: { paths: Record<string, Partial<Record<Method, Operation>>> };
  let credentials: Credentials;
  /** Real values for path parameters, by route: the deeper refusals need a target that exists. */
  let known: (path: string, parameter: string) => string;
  /** Puts back what an earlier operation's probes removed (the gym's webhook), for the next one's. */
  let restore: () => Promise<void>;
  const sessions: Record<string, Record<string, string>> = {};

  async function signIn(role: 'operator' | 'support' | 'gym', placeIds: string[] = []) {
    const account = await createAccount(t, { role, placeIds });
    const res = await request(t.http)
      .post('/account/session')
      .send({ email: account.email, password: PASSWORD });
    const cookie = (res.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    return { cookie, csrf: res.body.csrf_token as string };
  }

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_MINUTE: '5',
      WEBHOOK_TEST_EVENTS_PER_MINUTE: '1',
      TOKEN_LOOKUP_FAILURES_PER_MINUTE: '1',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '1',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
      METRICS_TOKEN: 'metrics-token-of-the-statuses-test',
    });
    await truncateAll(t.dataSource);
    await receiver.start();
    document = (await request(t.http).get('/docs-json').expect(200)).body;

    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    // The control panel's probes rotate keys and change webhooks: at a gym of their own, so the first keeps its
    // credentials for the gym's routes.
    const adminGym = await createGym(t);
    await subscribeCheckIns(t, adminGym, receiver.url());
    const bearer = await partnerToken(t.http, gym);
    const benefitPlan = await createBenefitPlan(t.dataSource);
    const member = await createBeneficiary(t.dataSource, benefitPlan);
    const other = await createBeneficiary(t.dataSource, benefitPlan);
    const checkIn = await createMemberCheckIn(t, {
      identifier: member.cpf,
      service_provider_code: gym.place.code,
    });
    const confirmation = (await confirmationPath(t, checkIn.id)).split('/').pop() as string;
    await createMemberCheckIn(t, { identifier: other.cpf, service_provider_code: gym.place.code });
    const account = await createAccount(t, { role: 'support' });
    const link = await request(t.http)
      .post(`/admin/accounts/${account.id}/password-link`)
      .set('Authorization', `Bearer ${t.config.adminApiToken}`)
      .expect(201);
    const linkToken = (link.body.url as string).split('#/set-password/')[1];
    let deliveryId = '';
    await eventually(
      async () => {
        const rows: { id: string }[] = await t.dataSource.query(
          "SELECT id FROM webhook_deliveries WHERE status = 'delivered' LIMIT 1",
        );
        deliveryId = rows[0]?.id ?? '';
        return deliveryId !== '';
      },
      15_000,
      'a delivered webhook',
    );

    const operator = await signIn('operator');
    const support = await signIn('support');
    const gymAccount = await signIn('gym', [gym.place.id]);
    credentials = {
      'x-api-key': { 'x-api-key': gym.placeApiKey },
      bearer: { Authorization: `Bearer ${bearer}` },
      admin: { Authorization: `Bearer ${t.config.adminApiToken}` },
      member: { Authorization: memberAuth(t) },
      // The Wellhub-compatible routes: the partner's key as the bearer, the gym in X-Gym-Id.
      'access-key': { Authorization: `Bearer ${gym.partnerApiKey}`, 'X-Gym-Id': String(gym.place.gymId) },
    };
    const signedIn = { operator, support, gym: gymAccount };
    const setSessions = () => {
      sessions.operator = { Cookie: signedIn.operator.cookie, 'X-CSRF-Token': signedIn.operator.csrf };
      sessions.operatorWithoutCsrf = { Cookie: signedIn.operator.cookie };
      sessions.support = { Cookie: signedIn.support.cookie, 'X-CSRF-Token': signedIn.support.csrf };
      sessions.gym = { Cookie: signedIn.gym.cookie, 'X-CSRF-Token': signedIn.gym.csrf };
      credentials.session = sessions.operator;
    };
    restore = async () => {
      for (const place of [gym.place.id, adminGym.place.id]) {
        const [{ n }] = await t.dataSource.query(
          'SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE place_id = ? AND active = 1',
          [place],
        );
        if (Number(n) === 0)
          await request(t.http)
            .post(`/admin/places/${place}/webhooks`)
            .set(credentials.admin)
            .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' })
            .expect(201);
      }
      // A sign-out probe ends a session: sign in again.
      for (const [role, session] of Object.entries(signedIn) as [keyof typeof signedIn, typeof operator][]) {
        const alive = await request(t.http).get('/account/session').set('Cookie', session.cookie);
        if (alive.status !== 200) signedIn[role] = await signIn(role, role === 'gym' ? [gym.place.id] : []);
      }
      setSessions();
    };
    known = (path, parameter) => {
      if (parameter === 'type') return 'CHECKIN';
      if (parameter === 'gym_id') return String(gym.place.gymId);
      if (parameter === 'gympass_id') return String(member.memberNumber);
      if (parameter === 'cpf') return member.cpf;
      if (path.startsWith('/api/v1/webhook_confirmations')) return confirmation;
      if (path.startsWith('/account/password-links')) return linkToken;
      if (path.startsWith('/admin/partners')) return String(adminGym.partner.id);
      if (path.startsWith('/admin/accounts')) return String(account.id);
      if (path.startsWith('/admin/benefit-plans')) return benefitPlan.code;
      if (path.includes('deliveries')) return deliveryId;
      if (path.startsWith('/member/v1/check_ins')) return checkIn.id;
      if (parameter === 'code') return adminGym.plan.code;
      return adminGym.place.id;
    };
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const fill = (path: string, value: (parameter: string) => string) =>
    path.replace(/\{([^}]+)\}/g, (_match, parameter: string) => value(parameter));

  function examplesOf(operation: Operation): unknown[] {
    const content = operation.requestBody?.content?.['application/json'];
    if (!content) return [];
    return [
      ...(content.example === undefined ? [] : [content.example]),
      ...Object.values(content.examples ?? {}).map((example) => example.value),
    ];
  }

  function probesOf(path: string, method: Method, operation: Operation): Probe[] {
    const schemes = (operation.security ?? []).map((requirement) => Object.keys(requirement)[0]);
    const auth = schemes.length > 0 ? credentials[schemes[0]] : {};
    const real = fill(path, (parameter) => known(path, parameter));
    const probes: Probe[] = [
      { name: 'no credentials', path: real, headers: {} },
      { name: 'no body', path: real, headers: auth },
      {
        name: 'a query of 101 parameters',
        path: `${real}?${Array.from({ length: 101 }, (_, i) => `q${i}=1`).join('&')}`,
        headers: auth,
      },
      { name: 'headers over 16 KB', path: real, headers: { ...auth, 'X-Big': 'a'.repeat(20_000) } },
    ];
    if (path.includes('{')) {
      probes.push(
        { name: 'unknown path parameters', path: fill(path, () => 'unknown0'), headers: auth },
        {
          name: 'a path parameter of 300 characters',
          path: fill(path, () => '1'.repeat(300)),
          headers: auth,
        },
        { name: 'a malformed %-encoding', path: fill(path, () => '%E0%A4%A'), headers: auth },
      );
    }
    if (method !== 'get') {
      probes.push(
        { name: 'a body that is not an object', path: real, headers: auth, body: '[]' },
        { name: 'an empty object, 3 times', path: real, headers: auth, body: '{}', times: 3 },
        { name: 'a body that is not JSON', path: real, headers: auth, body: '{"a":' },
        {
          name: 'an object of 101 fields',
          path: real,
          headers: auth,
          body: JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, i]))),
        },
        {
          name: 'a body over 10 MB',
          path: real,
          headers: auth,
          body: JSON.stringify({ a: 'x'.repeat(11 * 1024 * 1024) }),
        },
      );
      for (const example of examplesOf(operation))
        probes.push({
          name: `its example ${JSON.stringify(example).slice(0, 60)}, 3 times`,
          path: real,
          headers: auth,
          body: JSON.stringify(example),
          times: 3,
        });
      if (schemes.includes('session')) {
        probes.push(
          {
            name: 'a session without its CSRF token',
            path: real,
            headers: sessions.operatorWithoutCsrf,
            body: '{}',
          },
          { name: 'a support session', path: real, headers: sessions.support, body: '{}' },
          { name: 'a gym session', path: real, headers: sessions.gym, body: '{}' },
        );
      }
    } else {
      probes.push({ name: 'the same, 3 times', path: real, headers: auth, times: 3 });
      if (schemes.includes('session'))
        probes.push(
          { name: 'a support session', path: real, headers: sessions.support },
          { name: 'a gym session', path: real, headers: sessions.gym },
        );
    }
    return probes;
  }

  it('answers nothing an operation does not declare', async () => {
    const undeclared: string[] = [];
    let probed = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item) as [Method, Operation][]) {
        await restore();
        for (const probe of probesOf(path, method, operation)) {
          for (let i = 0; i < (probe.times ?? 1); i++) {
            let call = request(t.http)[method](probe.path).set(probe.headers);
            if (probe.body !== undefined)
              call = call.set('Content-Type', 'application/json').send(probe.body);
            const res = await call;
            probed += 1;
            if (!(String(res.status) in operation.responses)) {
              undeclared.push(
                `${method.toUpperCase()} ${path}: ${res.status} ${res.body?.errors?.[0]?.label ?? ''} to ${probe.name}`,
              );
            }
          }
        }
      }
    }
    expect(probed).toBeGreaterThan(500);
    expect([...new Set(undeclared)]).toEqual([]);
    // Some 700 requests one after another: on a loaded machine they need more than the default minute.
  }, 240_000);
});
