import { DomainError } from '../../common/errors/domain-error';
import {
  parseAppValidationRequest,
  parseIdentifierRequest,
  parseTrackUsageRequest,
} from './track-usage-request';

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseTrackUsageRequest', () => {
  const flat = { type: 'cpf', identifier: '111.444.777-35', service_provider_code: 'gym12345' };

  it('reads a flat body, stripping CPF punctuation and upper-casing codes', () => {
    expect(parseTrackUsageRequest(flat)).toEqual({
      type: 'cpf',
      identifier: '11144477735',
      serviceProviderCode: 'GYM12345',
      servicePlanCode: undefined,
    });
  });

  it('reads the envelope, with or without data.type', () => {
    const attributes = { type: 'code', identifier: 'eq2b3fbk', service_provider_plan_code: 'B0KR5QWH' };
    const expected = {
      type: 'code',
      identifier: 'EQ2B3FBK',
      serviceProviderCode: undefined,
      servicePlanCode: 'B0KR5QWH',
    };
    expect(parseTrackUsageRequest({ data: { type: 'track_usage', attributes } })).toEqual(expected);
    expect(parseTrackUsageRequest({ data: { attributes } })).toEqual(expected);
  });

  it('ignores extra fields', () => {
    expect(parseTrackUsageRequest({ ...flat, extra: [1, 2], nested: { a: 1 } }).identifier).toBe(
      '11144477735',
    );
  });

  it.each([
    [{ data: { type: 'other', attributes: flat } }, 'data.type must be track_usage'],
    [{ data: [] }, 'data must be an object with type and attributes'],
    [{ data: { type: 'track_usage', attributes: [flat] } }, 'data.attributes must be an object'],
    [{ identifier: '11144477735' }, 'type is required'],
    [{ type: 'cpf' }, 'identifier is required'],
    [{ type: 'email', identifier: 'a@b.c' }, 'type must be one of: cpf, code, token'],
    [{ type: 'token', identifier: '12345' }, 'identifier must be a check-in token of 6 digits'],
    [{ type: 'token', identifier: '1234567' }, 'identifier must be a check-in token of 6 digits'],
    [{ type: 'token', identifier: '12a456' }, 'identifier must be a check-in token of 6 digits'],
    [{ type: 'cpf', identifier: 11144477735 }, 'identifier must be a string'],
    [{ type: ['cpf'], identifier: '11144477735' }, 'type must be a string'],
    [{ type: 'cpf', identifier: { cpf: '1' } }, 'identifier must be a string'],
    [{ type: 'cpf', identifier: '1114447773' }, 'identifier must be a CPF of 11 digits'],
    [{ type: 'cpf', identifier: 'x'.repeat(100_000) }, 'identifier must be at most 64 characters'],
    [{ type: 'code', identifier: 'has space' }, 'identifier must be a beneficiary code'],
    [{ ...flat, service_provider_code: 7 }, 'service_provider_code must be a string'],
    [{ ...flat, service_provider_plan_code: {} }, 'service_provider_plan_code must be a string'],
    [{ data: { attributes: { type: 'cpf' } } }, 'data.attributes.identifier is required'],
    [[flat], 'The request body must be a JSON object.'],
  ])('refuses %j with invalid_parameter: %s', (body, message) => {
    const error = refusal(() => parseTrackUsageRequest(body));
    expect(error.label).toBe('invalid_parameter');
    expect(error.message).toBe(message);
  });

  it('reads a check-in token as people type it, and the type in any case', () => {
    for (const typed of ['123456', '123 456', '123-456', ' 123.456 ']) {
      expect(
        parseTrackUsageRequest({ type: 'TOKEN', identifier: typed, service_provider_code: 'gym1' }),
      ).toEqual({
        type: 'token',
        identifier: '123456',
        serviceProviderCode: 'GYM1',
        servicePlanCode: undefined,
      });
    }
  });

  it('takes only the types it is given', () => {
    const error = refusal(() =>
      parseTrackUsageRequest({ type: 'token', identifier: '123456' }, ['cpf', 'code'] as const),
    );
    expect(error.message).toBe('type must be one of: cpf, code');
  });

  it('leaves wrong CPF check digits to the eligibility rules', () => {
    expect(parseTrackUsageRequest({ type: 'cpf', identifier: '11144477736' }).identifier).toBe('11144477736');
  });
});

describe('parseIdentifierRequest', () => {
  it('reads flat and enveloped bodies', () => {
    expect(parseIdentifierRequest({ type: 'cpf', identifier: '11144477735' })).toEqual({
      type: 'cpf',
      identifier: '11144477735',
    });
    expect(parseIdentifierRequest({ data: { attributes: { type: 'code', identifier: 'abc' } } })).toEqual({
      type: 'code',
      identifier: 'ABC',
    });
    expect(parseIdentifierRequest({ type: 'token', identifier: '004 217' })).toEqual({
      type: 'token',
      identifier: '004217',
    });
  });
});

describe('parseAppValidationRequest', () => {
  it('reads employee_document_number or type/identifier', () => {
    expect(parseAppValidationRequest({ employee_document_number: '111.444.777-35' })).toEqual({
      cpf: '11144477735',
    });
    expect(parseAppValidationRequest({ type: 'cpf', identifier: '11144477735' })).toEqual({
      cpf: '11144477735',
    });
  });

  it.each([
    [{}, 'employee_document_number is required'],
    [{ employee_document_number: 5 }, 'employee_document_number must be a string'],
    [{ employee_document_number: '123' }, 'employee_document_number must be a CPF of 11 digits'],
    [{ type: 'code', identifier: 'ABC' }, 'type must be one of: cpf'],
  ])('refuses %j: %s', (body, message) => {
    expect(refusal(() => parseAppValidationRequest(body)).message).toBe(message);
  });
});
