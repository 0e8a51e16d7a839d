import request from 'supertest';
import { createBeneficiary, createBenefitPlan, nextCpf } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('POST /partner_app/v1/validate (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  async function setup() {
    const gym = await createGym(t);
    const post = (body: object) =>
      request(t.http).post('/partner_app/v1/validate').set('x-api-key', gym.placeApiKey).send(body);
    return { gym, post };
  }

  it('answers employee_data and app_data, by document number or by type and identifier', async () => {
    const { post } = await setup();
    const plan = await createBenefitPlan(t.dataSource, { mealPlan: true, appointment: false });
    const member = await createBeneficiary(t.dataSource, plan, {
      name: 'Joana Lima',
      email: 'joana@example.com',
      phone: '+5511988887777',
      birthday: '1991-02-03',
    });
    const expected = {
      employee_data: {
        name: 'Joana Lima',
        email: 'joana@example.com',
        birthday: '1991-02-03',
        phone: '+5511988887777',
      },
      app_data: { meal_plan: true, appointment: false },
    };
    expect((await post({ employee_document_number: member.cpf }).expect(200)).body).toEqual(expected);
    expect((await post({ type: 'cpf', identifier: member.cpf }).expect(200)).body).toEqual(expected);
  });

  it('answers null for missing optional fields', async () => {
    const { post } = await setup();
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource), {
      email: null,
      phone: null,
      birthday: null,
    });
    const res = await post({ employee_document_number: member.cpf }).expect(200);
    expect(res.body.employee_data).toEqual({ name: member.name, email: null, birthday: null, phone: null });
  });

  it('answers not_exists and inactive_employee', async () => {
    const { post } = await setup();
    expectError(await post({ employee_document_number: nextCpf() }), 422, 'not_exists');
    expectError(await post({ employee_document_number: '11144477736' }), 422, 'not_exists');
    const noPlan = await createBeneficiary(t.dataSource, null);
    expectError(await post({ employee_document_number: noPlan.cpf }), 422, 'not_exists');
    const inactive = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource), {
      active: false,
    });
    expectError(await post({ employee_document_number: inactive.cpf }), 422, 'inactive_employee');
  });

  it('answers invalid_parameter for bad input', async () => {
    const { post } = await setup();
    expectError(await post({}), 422, 'invalid_parameter');
    expectError(await post({ employee_document_number: 11144477735 }), 422, 'invalid_parameter');
    expectError(await post({ employee_document_number: 'x'.repeat(10_000) }), 422, 'invalid_parameter');
  });

  it('writes nothing', async () => {
    const { post } = await setup();
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    await post({ employee_document_number: member.cpf }).expect(200);
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM visits');
    expect(Number(n)).toBe(0);
  });
});
