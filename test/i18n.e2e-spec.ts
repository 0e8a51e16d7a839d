import request from 'supertest';
import { createBeneficiary, createBenefitPlan, nextCpf } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { envelope, expectError, flat } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

const ADMIN = { authorization: 'Bearer dev-admin-token-change-me' };

describe('languages of detail and message (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The service's own default, which the other specs set to English.
    t = await createTestApp({ DEFAULT_LOCALE: 'pt-BR' });
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  async function visitedToday() {
    const gym = await createGym(t);
    const beneficiary = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    t.clock.set('2026-11-23T10:02:00Z');
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(envelope({ identifier: beneficiary.cpf }))
      .expect(204);
    const validate = (language?: string) => {
      const call = request(t.http).post('/v1/track_usages/validate').set('x-api-key', gym.placeApiKey);
      if (language) call.set('accept-language', language);
      return call.send(flat({ identifier: beneficiary.cpf }));
    };
    return { gym, beneficiary, validate };
  }

  it('answers in Portuguese without Accept-Language, the label unchanged', async () => {
    const { validate } = await visitedToday();
    const res = await validate();
    expect(expectError(res, 422, 'already_used')).toBe(
      'Um check-in nesta academia foi registrado às 07:02; tente de novo depois das 08:32.',
    );
    expect(res.headers['content-language']).toBe('pt-BR');
  });

  it('follows Accept-Language: es, en, and the nearest of ours for regional tags', async () => {
    const { validate } = await visitedToday();
    expect(expectError(await validate('es-419,es;q=0.9'), 422, 'already_used')).toBe(
      'Se registró un check-in en este gimnasio a las 07:02; reintente después de las 08:32.',
    );
    const english = await validate('en-US');
    expect(expectError(english, 422, 'already_used')).toBe(
      'A check-in at this gym was recorded at 07:02; try again after 08:32.',
    );
    expect(english.headers['content-language']).toBe('en');
    expect(expectError(await validate('fr-FR'), 422, 'already_used')).toMatch(/^Um check-in/);
  });

  it('translates refusals of the HTTP layer, the guards and the DTO validation', async () => {
    const unknown = await request(t.http).get('/nowhere').set('accept-language', 'es');
    expect(expectError(unknown, 404, 'not_found', 'Not Found')).toBe('No existe la ruta GET /nowhere.');
    const badJson = await request(t.http)
      .post('/partner/auth')
      .set('content-type', 'application/json')
      .send('{"oops"');
    expect(expectError(badJson, 400, 'malformed_request', 'Bad Request')).toBe(
      'O corpo da requisição não é um JSON válido.',
    );
    const noKey = await request(t.http).post('/v1/track_usages/validate').send({});
    expect(expectError(noKey, 401, 'invalid_api_key', 'Unauthorized')).toBe(
      'O cabeçalho x-api-key está ausente, é desconhecido ou foi revogado.',
    );
    const blank = await request(t.http).post('/admin/partners').set(ADMIN).send({ name: '   ' });
    expect(expectError(blank, 422, 'invalid_parameter')).toBe('name não pode ficar em branco');
    const long = await request(t.http)
      .post('/admin/partners')
      .set(ADMIN)
      .set('accept-language', 'en')
      .send({ name: 'x'.repeat(300) });
    expect(expectError(long, 422, 'invalid_parameter')).toBe('name must be at most 255 characters');
  });

  it("gives each refused row of a bulk import its reason in the reader's language", async () => {
    const plan = await createBenefitPlan(t.dataSource);
    const res = await request(t.http)
      .post('/admin/beneficiaries/bulk')
      .set(ADMIN)
      .set('accept-language', 'es')
      .send({
        beneficiaries: [
          { cpf: nextCpf(), name: 'Ana', benefit_plan_code: plan.code },
          { cpf: '11144477736', name: 'Bad', benefit_plan_code: plan.code },
        ],
      })
      .expect(200);
    expect(res.body).toEqual({
      created: 1,
      updated: 0,
      errors: [
        {
          index: 1,
          label: 'invalid_parameter',
          message: 'cpf debe tener 11 dígitos con dígitos verificadores válidos',
        },
      ],
    });
  });

  it('replays an idempotent refusal in the language of the repeat', async () => {
    const { gym, beneficiary } = await visitedToday();
    const repeat = (language: string) =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .set('idempotency-key', 'turnstile-42')
        .set('accept-language', language)
        .send(envelope({ identifier: beneficiary.cpf }));
    expect(expectError(await repeat('en'), 422, 'already_used')).toMatch(/^A check-in at this gym/);
    expect(expectError(await repeat('pt-BR'), 422, 'already_used')).toMatch(/^Um check-in nesta academia/);
  });
});
