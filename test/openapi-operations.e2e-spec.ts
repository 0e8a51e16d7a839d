import request from 'supertest';
import { createAccount, PASSWORD } from './factories/accounts.factory';
import { memberAuth } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
}

interface SecurityScheme {
  type: string;
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  name?: string;
}

interface Document {
  paths: Record<string, Partial<Record<Method, Operation>>>;
  components: { securitySchemes: Record<string, SecurityScheme> };
}

/**
 * Verbs an operation id may start with. A new route whose handler starts with another verb adds it here; a handler
 * named by a noun (`deliveries`) is renamed instead (see src/common/swagger/operation-ids.ts).
 */
const VERBS = new Set([
  'cancel',
  'check',
  'confirm',
  'create',
  'delete',
  'describe',
  'export',
  'get',
  'import',
  'invite',
  'issue',
  'list',
  'redeliver',
  'register',
  'remove',
  'reveal',
  'rotate',
  'send',
  'set',
  'sign',
  'update',
  'validate',
]);

const METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Checks every operation of the served document, so routes added later are held to the same rules: an id that a
 * client generator turns into a good method name, and `security` that says exactly which credentials the route's
 * guards let in (probed: each scheme's credential alone is let in where the operation lists it and refused with
 * 401 everywhere else; no credentials at all are refused exactly where the operation lists a scheme).
 */
describe('The OpenAPI operations (e2e)', () => {
  let t: TestApp;
  let document: Document;
  /** A credential for each security scheme the service defines, as request headers. */
  let credentials: Record<string, () => Record<string, string>>;
  let signIn: () => Promise<void>;
  let session: { cookie: string; csrf: string };

  beforeAll(async () => {
    t = await createTestApp();
    await truncateAll(t.dataSource);
    document = (await request(t.http).get('/docs-json').expect(200)).body;
    const gym = await createGym(t);
    const accessToken = await partnerToken(t.http, gym);
    const operator = await createAccount(t, { role: 'operator' });
    signIn = async () => {
      const res = await request(t.http)
        .post('/account/session')
        .send({ email: operator.email, password: PASSWORD })
        .expect(200);
      const cookies = res.headers['set-cookie'] as unknown as string[];
      session = { cookie: cookies.map((c) => c.split(';')[0]).join('; '), csrf: res.body.csrf_token };
    };
    await signIn();
    credentials = {
      'x-api-key': () => ({ 'x-api-key': gym.placeApiKey }),
      bearer: () => ({ Authorization: `Bearer ${accessToken}` }),
      admin: () => ({ Authorization: `Bearer ${t.config.adminApiToken}` }),
      member: () => ({ Authorization: memberAuth(t) }),
      'access-key': () => ({
        Authorization: `Bearer ${gym.placeApiKey}`,
        'X-Gym-Id': String(gym.place.gymId),
      }),
      session: () => ({ Cookie: session.cookie, 'X-CSRF-Token': session.csrf }),
    };
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        name: `${method.toUpperCase()} ${path}`,
        path,
        method,
        operation: item[method] as Operation,
      })),
    );

  it('gives every operation a unique, verb-first camelCase id', () => {
    const ids = operations().map(({ name, operation }) => ({ name, id: operation.operationId ?? '' }));
    const malformed = ids.filter(({ id }) => !/^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(id));
    expect(malformed).toEqual([]);
    const notVerbFirst = ids.filter(({ id }) => !VERBS.has(/^[a-z]+/.exec(id)?.[0] ?? ''));
    expect(notVerbFirst).toEqual([]);
    const seen = new Map<string, string>();
    const repeated: string[] = [];
    for (const { name, id } of ids) {
      if (seen.has(id)) repeated.push(`${id}: ${seen.get(id)} and ${name}`);
      seen.set(id, name);
    }
    expect(repeated).toEqual([]);
  });

  it('declares security on every operation, public ones as an empty list, with schemes the document defines', () => {
    const schemes = document.components.securitySchemes;
    const problems = operations().flatMap(({ name, operation }) => {
      if (!Array.isArray(operation.security)) return [`${name}: no security`];
      return operation.security
        .flatMap((requirement) => Object.keys(requirement))
        .filter((scheme) => !schemes[scheme])
        .map((scheme) => `${name}: undefined scheme ${scheme}`);
    });
    expect(problems).toEqual([]);
  });

  it('names a bearer format only where the bearer token is a JWT', () => {
    for (const [name, scheme] of Object.entries(document.components.securitySchemes)) {
      if (scheme.type !== 'http' || scheme.scheme !== 'bearer') continue;
      const credential = credentials[name];
      if (!credential) throw new Error(`No credential for the security scheme ${name}: add one to this test`);
      const token = /^Bearer (.+)$/.exec(credential().Authorization)?.[1] ?? '';
      const isJwt = /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
      expect({ name, bearerFormat: scheme.bearerFormat }).toEqual({
        name,
        bearerFormat: isJwt ? 'JWT' : undefined,
      });
    }
  });

  it('lets in exactly the credentials each operation lists', async () => {
    const schemes = Object.keys(document.components.securitySchemes);
    const missing = schemes.filter((scheme) => !credentials[scheme]);
    if (missing.length > 0)
      throw new Error(`No credential for the security schemes ${missing.join(', ')}: add them to this test`);
    const wrong: string[] = [];
    for (const { name, path, method, operation } of operations()) {
      const target = path.replace(/\{[^}]+\}/g, 'unknown0');
      const requirements = operation.security ?? [];
      // Alone, a scheme opens the operation when a requirement names it alone.
      const opens = (scheme: string) =>
        requirements.some((requirement) => Object.keys(requirement).join() === scheme);
      const probes: { credential: string; headers: Record<string, string>; letIn: boolean }[] = [
        { credential: 'no credentials', headers: {}, letIn: requirements.length === 0 },
        ...schemes.map((scheme) => ({
          credential: scheme,
          headers: credentials[scheme](),
          letIn: requirements.length === 0 || opens(scheme),
        })),
      ];
      for (const probe of probes) {
        const res = await request(t.http)[method](target).set(probe.headers);
        if ((res.status !== 401) !== probe.letIn)
          wrong.push(
            `${name} with ${probe.credential}: ${res.status} ${res.body?.errors?.[0]?.label ?? ''}, expected ${probe.letIn ? 'not 401' : '401'}`,
          );
      }
      // A sign-out probe ends the session: sign in again for the next operation's.
      if ((await request(t.http).get('/account/session').set('Cookie', session.cookie)).status !== 200)
        await signIn();
    }
    expect(wrong).toEqual([]);
  });
});
