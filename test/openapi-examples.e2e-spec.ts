import request from 'supertest';
import { KeyVault } from '../src/common/crypto/key-vault';
import { DemoData, seedDemo } from '../scripts/demo-seed';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

interface Example {
  summary?: string;
  value: unknown;
}
interface Parameter {
  in: string;
  name: string;
  example?: unknown;
  schema?: { example?: unknown };
}
interface Operation {
  parameters?: Parameter[];
  responses: Record<string, unknown>;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { examples?: Record<string, Example> }> };
}
interface Sent {
  method: string;
  path: string;
  name: string;
  summary: string;
  expected: { status: number; label?: string };
  value: unknown;
  security: string[];
  parameters: Parameter[];
}

/** `... → 204` or `... → 422 not_exists`: what the example answers against a fresh demo. */
const OUTCOME = /→ (\d{3})(?: ([a-z_]+))?$/;

function gymCodeOf(value: unknown): string | undefined {
  const body = value as {
    service_provider_code?: string;
    data?: { attributes?: { service_provider_code?: string } };
  };
  return body.service_provider_code ?? body.data?.attributes?.service_provider_code;
}

describe('Every request example of the OpenAPI document answers as labelled against the demo (e2e)', () => {
  let t: TestApp;
  let examples: Sent[];
  let queries: { path: string; query: Record<string, unknown>; status: number }[];
  beforeAll(async () => {
    t = await createTestApp({ ACCESS_SANDBOX: 'true' });
    const document = (await request(t.http).get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    examples = [];
    queries = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const parameters = operation.parameters ?? [];
        const security = (operation.security ?? []).flatMap((scheme) => Object.keys(scheme));
        if (method === 'get' && security.includes('bearer') && parameters.some((p) => p.schema?.example)) {
          const query = Object.fromEntries(parameters.map((p) => [p.name, p.schema?.example]));
          const status = Number(Object.keys(operation.responses).find((code) => code.startsWith('2')));
          queries.push({ path, query, status });
        }
        const content = operation.requestBody?.content['application/json'];
        for (const [name, example] of Object.entries(content?.examples ?? {})) {
          const summary = example.summary ?? '';
          const match = OUTCOME.exec(summary);
          examples.push({
            method,
            path,
            name,
            summary,
            expected: match ? { status: Number(match[1]), label: match[2] } : { status: NaN },
            value: example.value,
            security,
            parameters,
          });
        }
      }
    }
  });
  afterAll(() => t.close());

  let demo: DemoData;
  beforeAll(async () => {
    await truncateAll(t.dataSource);
    demo = await seedDemo(t.dataSource, t.app.get(KeyVault));
  });

  it("makes each operation's first example (Swagger UI's default) one that succeeds", () => {
    const firsts = new Map<string, Sent>();
    for (const example of examples) {
      const key = `${example.method} ${example.path}`;
      if (!firsts.has(key)) firsts.set(key, example);
    }
    const failing = [...firsts.values()].filter(
      (e) => !(e.expected.status >= 200 && e.expected.status < 300),
    );
    expect(failing.map((e) => `${e.method} ${e.path} "${e.summary}"`)).toEqual([]);
    expect(firsts.get('post /v1/track_usages')?.value).toMatchObject({
      data: { attributes: { type: 'cpf' } },
    });
  });

  it('labels every example with the answer it gets', () => {
    expect(examples.length).toBeGreaterThanOrEqual(17);
    expect(examples.filter((e) => Number.isNaN(e.expected.status)).map((e) => `${e.path} ${e.name}`)).toEqual(
      [],
    );
  });

  // Some twenty requests one after another: on a loaded machine they need more than the default minute.
  it('sends every example in the order of the document to one fresh demo, as a reader tries them, and gets the documented status and label', async () => {
    const answers: string[] = [];
    for (const example of examples) {
      const place = demo.places.find((p) => p.code === gymCodeOf(example.value)) ?? demo.places[1];
      const exampleOf = (p: Parameter) => String(p.example ?? p.schema?.example);
      const path = example.parameters
        .filter((p) => p.in === 'path')
        .reduce((at, p) => at.replace(`{${p.name}}`, exampleOf(p)), example.path);
      let call = request(t.http)
        [example.method as 'post'](path)
        .send(example.value as object);
      // The Wellhub-compatible routes: the partner's key as the bearer, the gym in X-Gym-Id.
      if (example.security.includes('access-key')) {
        call = call.set('authorization', `Bearer ${demo.partnerApiKey}`);
        for (const header of example.parameters.filter((p) => p.in === 'header'))
          call = call.set(header.name, exampleOf(header));
      }
      if (example.security.includes('x-api-key')) call = call.set('x-api-key', place.apiKey);
      if (example.security.includes('member'))
        call = call.set('authorization', `Bearer ${t.config.memberApiToken}`);
      const response = await call;
      const label = (response.body as { errors?: { label: string }[] })?.errors?.[0]?.label;
      answers.push(
        `${example.method} ${example.path} "${example.summary}": ${response.status}${label ? ` ${label}` : ''}`,
      );
    }
    const expected = examples.map(
      (e) =>
        `${e.method} ${e.path} "${e.summary}": ${e.expected.status}${e.expected.label ? ` ${e.expected.label}` : ''}`,
    );
    expect(answers).toEqual(expected);
  }, 180_000);

  it("sends the query examples of the administrative routes with the demo's bearer token", async () => {
    const { token } = (
      await request(t.http)
        .post('/partner/auth')
        .send({ place_api_key: demo.places[1].apiKey, partner_api_key: demo.partnerApiKey })
        .expect(201)
    ).body as { token: string };
    expect(queries.map((q) => q.path)).toEqual(expect.arrayContaining(['/partner/plans']));
    for (const { path, query, status } of queries) {
      const response = await request(t.http).get(path).query(query).set('authorization', `Bearer ${token}`);
      expect({ path, query, status: response.status }).toEqual({ path, query, status });
    }
  });
});
