import { normalizeCpf } from '../../common/domain/cpf';
import { invalidParameter } from '../../common/errors/domain-error';

/** Identifiers of a beneficiary; `member_number` (13 digits) on the member API only. */
export type BeneficiaryIdentifierType = 'cpf' | 'code' | 'member_number';
/** `token`: the 6-digit token of a member check-in made in the app, pending at the gym. */
export type IdentifierType = BeneficiaryIdentifierType | 'token';

interface GymFields {
  serviceProviderCode?: string;
  servicePlanCode?: string;
}

/** A request that names a beneficiary: its CPF (digits only) or its upper-cased code. */
export type BeneficiaryRequest = GymFields & { type: BeneficiaryIdentifierType; identifier: string };
/** A request that names a member check-in by its 6-digit token. */
export type TokenRequest = GymFields & { type: 'token'; identifier: string };

/** A check-in request after its shape is checked (rule 1 of the eligibility order). */
export type TrackUsageRequest = BeneficiaryRequest | TokenRequest;

/** `{type, identifier}` alone, as the beneficiary-code lookup takes it. */
export type IdentifierRequest =
  Pick<BeneficiaryRequest, 'type' | 'identifier'> | Pick<TokenRequest, 'type' | 'identifier'>;

export const IDENTIFIER_TYPES: readonly IdentifierType[] = ['cpf', 'code', 'token'];
/** What a member check-in is made with (it has no token yet). */
export const BENEFICIARY_IDENTIFIER_TYPES: readonly BeneficiaryIdentifierType[] = [
  'cpf',
  'code',
  'member_number',
];

/** A member number: 13 digits, the first not 0. */
export const MEMBER_NUMBER_PATTERN = /^[1-9]\d{12}$/;

/** The beneficiaries column an identifier of this type is looked up in. */
export function beneficiaryColumn(type: BeneficiaryIdentifierType): 'cpf' | 'code' | 'member_number' {
  return type;
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

type Identified<T extends IdentifierType> = Pick<
  Extract<TrackUsageRequest, { type: T }>,
  'type' | 'identifier'
>;

/** A check-in token as people type it: `123456`, `123 456` or `123-456`. */
export function normalizeCheckInToken(raw: string): string {
  return raw.replace(/[\s.-]/g, '');
}

function parseIdentifier<T extends IdentifierType>(
  attributes: Json,
  path: string,
  allowed: readonly T[],
): Identified<T> {
  const rawType = requiredString(attributes, 'type', path).toLowerCase();
  if (!allowed.includes(rawType as T))
    throw invalidParameter('field.oneOf', { field: `${path}type`, values: allowed.join(', ') });
  const type = rawType as IdentifierType;
  const identifier = requiredString(attributes, 'identifier', path);
  const field = `${path}identifier`;
  switch (type) {
    case 'cpf': {
      const cpf = normalizeCpf(identifier);
      if (!/^\d{11}$/.test(cpf)) throw invalidParameter('field.cpf', { field });
      return { type, identifier: cpf } as Identified<T>;
    }
    case 'code':
      if (!CODE_PATTERN.test(identifier)) throw invalidParameter('field.beneficiaryCode', { field });
      return { type, identifier: identifier.toUpperCase() } as Identified<T>;
    case 'member_number': {
      const memberNumber = identifier.replace(/[\s.-]/g, '');
      if (!MEMBER_NUMBER_PATTERN.test(memberNumber)) throw invalidParameter('field.memberNumber', { field });
      return { type, identifier: memberNumber } as Identified<T>;
    }
    case 'token': {
      const token = normalizeCheckInToken(identifier);
      if (!/^\d{6}$/.test(token)) throw invalidParameter('field.checkInToken', { field });
      return { type, identifier: token } as Identified<T>;
    }
  }
}

/**
 * Body of validate and register (and of a member check-in, with `allowed` cpf and code): flat or enveloped;
 * `service_provider_code` and the plan code optional.
 */
export function parseTrackUsageRequest<T extends IdentifierType = IdentifierType>(
  body: unknown,
  allowed: readonly T[] = IDENTIFIER_TYPES as readonly T[],
): Extract<TrackUsageRequest, { type: T }> {
  const { attributes, path } = attributesOf(body);
  const identifier = parseIdentifier(attributes, path, allowed);
  return {
    ...identifier,
    serviceProviderCode: optionalString(attributes, 'service_provider_code', path)?.toUpperCase(),
    servicePlanCode: optionalString(attributes, 'service_provider_plan_code', path)?.toUpperCase(),
  } as Extract<TrackUsageRequest, { type: T }>;
}

/** Body of the beneficiary-code lookup: `{type, identifier}`, flat or enveloped. */
export function parseIdentifierRequest(body: unknown): IdentifierRequest {
  const { attributes, path } = attributesOf(body);
  return parseIdentifier(attributes, path, IDENTIFIER_TYPES);
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
  return { cpf: parseIdentifier(body, '', ['cpf'] as const).identifier };
}
