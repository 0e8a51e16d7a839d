import { translate } from '../../common/i18n/messages';
import { RowError, validateRows } from './bulk-rows';

/** The row errors as an English reader gets them. */
const inEnglish = (errors: RowError[]) =>
  errors.map((error) => ({ ...error, message: translate('en', error.message) }));

const plans = new Set(['GOLD']);

describe('validateRows', () => {
  it('keeps good rows and reports bad ones by index', () => {
    const { valid, errors } = validateRows(
      [
        { cpf: '111.444.777-35', name: 'Ana', benefit_plan_code: 'GOLD' },
        { cpf: '11144477736', name: 'Bad digits', benefit_plan_code: 'GOLD' },
        { cpf: '52998224725', benefit_plan_code: 'GOLD' },
        { cpf: '52998224725', name: 'Pedro', benefit_plan_code: 'NOPE' },
        'not an object',
        { cpf: '52998224725', name: 'Pedro', benefit_plan_code: 'GOLD', active: 'yes' },
        {
          cpf: '52998224725',
          name: 'Pedro',
          benefit_plan_code: 'GOLD',
          email: 'nope',
          birthday: '1990-13-01',
        },
        { cpf: '52998224725', name: 'Pedro', benefit_plan_code: 'GOLD', phone: null, active: false },
        { cpf: '11144477735', name: 'Ana again', benefit_plan_code: 'GOLD' },
      ],
      plans,
    );
    expect(valid.map((row) => row.index)).toEqual([0, 7]);
    expect(valid[0]).toEqual({
      index: 0,
      cpf: '11144477735',
      name: 'Ana',
      benefitPlanCode: 'GOLD',
      active: undefined,
      code: undefined,
      email: undefined,
      phone: undefined,
      birthday: undefined,
    });
    expect(valid[1]).toMatchObject({ phone: null, active: false });
    expect(inEnglish(errors)).toEqual([
      { index: 1, label: 'invalid_parameter', message: 'cpf must be 11 digits with valid check digits' },
      { index: 2, label: 'invalid_parameter', message: 'name is required and must be a string' },
      { index: 3, label: 'invalid_parameter', message: 'benefit_plan_code NOPE does not exist' },
      { index: 4, label: 'invalid_parameter', message: 'the row must be an object' },
      { index: 5, label: 'invalid_parameter', message: 'active must be a boolean' },
      { index: 6, label: 'invalid_parameter', message: 'email is not valid' },
      { index: 8, label: 'invalid_parameter', message: 'cpf is repeated; the row at index 0 was used' },
    ]);
  });

  it('reports a code used twice in one request', () => {
    const { errors } = validateRows(
      [
        { cpf: '11144477735', name: 'A', benefit_plan_code: 'GOLD', code: 'AAAA1111' },
        { cpf: '52998224725', name: 'B', benefit_plan_code: 'GOLD', code: 'AAAA1111' },
      ],
      plans,
    );
    expect(inEnglish(errors)).toEqual([
      { index: 1, label: 'invalid_parameter', message: 'code is repeated; the row at index 0 was used' },
    ]);
  });
});
