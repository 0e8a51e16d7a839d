import { DomainError } from '../../common/errors/domain-error';
import { message, MessageKey, MessageParams } from '../../common/i18n/messages';
import { MEMBER_NUMBER_PATTERN } from '../eligibility/track-usage-request';
import { CUSTOM_CODE_MAX_LENGTH, WEBHOOK_SECRET_MAX_LENGTH } from './dto/access-control.dto';

/** The key of a validation body that cannot be read (that platform's `checkin.validation.invalid`). */
export const INVALID_KEY = 'checkin.validation.invalid';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(key: MessageKey, params?: MessageParams, accessKey = INVALID_KEY): DomainError {
  return new DomainError('invalid_parameter', message(key, params), { accessKey });
}

/** A member number as sent: 13 digits, as a string or a number. */
export function parseMemberNumber(raw: unknown, field: string): string {
  const text = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !MEMBER_NUMBER_PATTERN.test(text.trim())) {
    throw invalid('field.memberNumber', { field });
  }
  return text.trim();
}

/** `custom_code`: 1 to 13 characters once trimmed. */
export function parseCustomCode(raw: unknown): string {
  const code = typeof raw === 'string' ? raw.trim() : '';
  if (code.length === 0 || code.length > CUSTOM_CODE_MAX_LENGTH) throw invalid('access.customCode');
  return code;
}

export interface ValidateRequest {
  memberNumber: string;
  customCode?: string;
}

/** `{gympass_id, custom_code?}`; extra fields are ignored. */
export function parseValidateRequest(body: unknown): ValidateRequest {
  if (!isObject(body)) throw invalid('request.bodyNotObject');
  const memberNumber = parseMemberNumber(body.gympass_id, 'gympass_id');
  if (body.custom_code === undefined || body.custom_code === null) return { memberNumber };
  return { memberNumber, customCode: parseCustomCode(body.custom_code) };
}

/** `{custom_code}` of the code routes. */
export function parseCustomCodeRequest(body: unknown): string {
  if (!isObject(body)) throw invalid('request.bodyNotObject');
  return parseCustomCode(body.custom_code);
}

export interface GymWebhookRequest {
  url: unknown;
  secret: string;
  additionalData: boolean;
}

/**
 * `{webhooks: [{event, url, secret, additional_data?}]}`: `checkin` is the one event this service sends; any
 * other name is `webhook.invalid_event`. The URL is checked by the caller (the rules of every webhook). An
 * empty list asks for no subscription. Fields that platform knows and this one does not use are ignored.
 */
export function parseGymWebhooks(body: unknown): GymWebhookRequest | null {
  if (!isObject(body) || !Array.isArray(body.webhooks)) {
    throw invalid('access.webhooksShape', undefined, 'webhook.invalid');
  }
  let wanted: GymWebhookRequest | null = null;
  for (const item of body.webhooks as unknown[]) {
    if (!isObject(item)) throw invalid('access.webhooksShape', undefined, 'webhook.invalid');
    if (item.event !== 'checkin') {
      throw invalid('access.invalidEvent', { event: String(item.event) }, 'webhook.invalid_event');
    }
    const secret = item.secret;
    if (typeof secret !== 'string' || secret.length === 0 || secret.length > WEBHOOK_SECRET_MAX_LENGTH) {
      throw invalid('access.webhookSecret', undefined, 'webhook.invalid_secret');
    }
    wanted = { url: item.url, secret, additionalData: item.additional_data === true };
  }
  return wanted;
}

export interface SimulateRequest {
  memberNumber: string;
  productId?: number;
}

/** `{gympass_user_id, product_id?}` of the sandbox. */
export function parseSimulateRequest(body: unknown): SimulateRequest {
  if (!isObject(body)) throw invalid('request.bodyNotObject');
  const memberNumber = parseMemberNumber(body.gympass_user_id, 'gympass_user_id');
  const raw = body.product_id;
  if (raw === undefined || raw === null) return { memberNumber };
  const productId = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
  if (typeof productId !== 'number' || !Number.isSafeInteger(productId) || productId <= 0) {
    throw invalid('access.productNotFound', { product: String(raw) });
  }
  return { memberNumber, productId };
}
