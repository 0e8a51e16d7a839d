import { normalizeCpf } from '../../common/domain/cpf';
import { invalidParameter } from '../../common/errors/domain-error';

export type IdentifierType = 'cpf' | 'code';

/** A check-in request after its shape is checked (rule 1 of the eligibility order). */
export interface TrackUsageRequest {
  type: IdentifierType;
  /** The CPF (digits only) or the upper-cased beneficiary code. */
  identifier: string;
  serviceProviderCode?: string;
  servicePlanCode?: string;
}

export const MAX_FIELD_LENGTH = 64;
const CODE_PATTERN = /^[A-Za-z0-9]{1,32}$/;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function optionalString(source: Json, field: string, path: string): string | undefined {
  const value = source[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidParameter('field.mustBeString', { field: `${path}${field}` });
  const trimmed = value.trim();
  if (trimmed.length > MAX_FIELD_LENGTH) {
    throw invalidParameter('field.tooLong', { field: `${path}${field}`, max: MAX_FIELD_LENGTH });
  }
  return trimmed || undefined;
}

function requiredString(source: Json, field: string, path: string): string {
  const value = optionalString(source, field, path);
  if (value === undefined) throw invalidParameter('field.required', { field: `${path}${field}` });
  return value;
}

/**
 * The identifier fields (`type`, `identifier`) of a flat body or of `{data:{type, attributes}}`.
 * `data.type`, when present, must be `track_usage`. Extra fields are ignored.
 */
function attributesOf(body: unknown): { attributes: Json; path: string } {
  if (!isObject(body)) throw invalidParameter('request.bodyNotObject');
  if (!('data' in body)) return { attributes: body, path: '' };
  const data = body.data;
  if (!isObject(data)) throw invalidParameter('trackUsage.dataShape');
  if (data.type !== undefined && data.type !== null && data.type !== 'track_usage') {
    throw invalidParameter('trackUsage.dataType');
  }
  if (!isObject(data.attributes)) throw invalidParameter('trackUsage.attributesShape');
  return { attributes: data.attributes, path: 'data.attributes.' };
}

function parseIdentifier(attributes: Json, path: string): Pick<TrackUsageRequest, 'type' | 'identifier'> {
  const rawType = requiredString(attributes, 'type', path).toLowerCase();
  if (rawType !== 'cpf' && rawType !== 'code')
    throw invalidParameter('field.oneOf', { field: `${path}type`, values: 'cpf, code' });
  const identifier = requiredString(attributes, 'identifier', path);
  if (rawType === 'cpf') {
    const cpf = normalizeCpf(identifier);
    if (!/^\d{11}$/.test(cpf)) throw invalidParameter('field.cpf', { field: `${path}identifier` });
    return { type: 'cpf', identifier: cpf };
  }
  if (!CODE_PATTERN.test(identifier))
    throw invalidParameter('field.beneficiaryCode', { field: `${path}identifier` });
  return { type: 'code', identifier: identifier.toUpperCase() };
}

/** Body of validate and register: flat or enveloped; `service_provider_code` and the plan code optional. */
export function parseTrackUsageRequest(body: unknown): TrackUsageRequest {
  const { attributes, path } = attributesOf(body);
  const identifier = parseIdentifier(attributes, path);
  return {
    ...identifier,
    serviceProviderCode: optionalString(attributes, 'service_provider_code', path)?.toUpperCase(),
    servicePlanCode: optionalString(attributes, 'service_provider_plan_code', path)?.toUpperCase(),
  };
}

/** Body of the beneficiary-code lookup: `{type, identifier}`, flat or enveloped. */
export function parseIdentifierRequest(body: unknown): Pick<TrackUsageRequest, 'type' | 'identifier'> {
  const { attributes, path } = attributesOf(body);
  return parseIdentifier(attributes, path);
}

/** Body of the app validation: `{employee_document_number}` or `{type: "cpf", identifier}`. */
export function parseAppValidationRequest(body: unknown): { cpf: string } {
  if (!isObject(body)) throw invalidParameter('request.bodyNotObject');
  if (body.employee_document_number !== undefined && body.employee_document_number !== null) {
    const raw = requiredString(body, 'employee_document_number', '');
    const cpf = normalizeCpf(raw);
    if (!/^\d{11}$/.test(cpf)) throw invalidParameter('field.cpf', { field: 'employee_document_number' });
    return { cpf };
  }
  if (body.type === undefined && body.identifier === undefined) {
    throw invalidParameter('field.required', { field: 'employee_document_number' });
  }
  const parsed = parseIdentifier(body, '');
  if (parsed.type !== 'cpf') throw invalidParameter('field.oneOf', { field: 'type', values: 'cpf' });
  return { cpf: parsed.identifier };
}
