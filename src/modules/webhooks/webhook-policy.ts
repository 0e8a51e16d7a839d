import { randomBytes } from 'node:crypto';
import { v7 as timeOrderedUuid } from 'uuid';
import { invalidParameter } from '../../common/errors/domain-error';
import { ipLiteralOf, isPublicAddress } from './webhook-addresses';
import { WEBHOOK_TYPES, WebhookType } from './webhooks.constants';

export const MAX_URL_LENGTH = 2048;

/** `whsec_` + base64 of 32 random bytes, the Standard Webhooks secret format. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * `dlv_` + 32 hex characters: a UUIDv7, time first, so that new rows go to the end of the table's primary key
 * instead of random pages of it (the outbox takes one row per check-in at a subscribed gym).
 */
export function generateDeliveryId(): string {
  return `dlv_${timeOrderedUuid().replace(/-/g, '')}`;
}

export const DELIVERY_ID_PATTERN = /^dlv_[0-9a-f]{32}$/;

/** `evt_` + 32 hex characters: a UUIDv7, as delivery ids are. */
export function generateEventId(): string {
  return `evt_${timeOrderedUuid().replace(/-/g, '')}`;
}

export function parseWebhookType(raw: unknown): WebhookType {
  const type = typeof raw === 'string' ? raw.toUpperCase() : raw;
  if (!WEBHOOK_TYPES.includes(type as WebhookType)) {
    throw invalidParameter('field.oneOf', { field: 'webhook_type', values: WEBHOOK_TYPES.join(', ') });
  }
  return type as WebhookType;
}

/**
 * A webhook target: https (http too when private networks are allowed), no user info, at most 2048
 * characters, and a host that, when it is an IP address, is a public one (`isPublicAddress`). Names are
 * resolved, and their addresses checked, when each connection is made (what a name resolves to can change).
 */
export function parseWebhookUrl(raw: unknown, allowPrivateNetworks: boolean): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidParameter('webhooks.urlRequired');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidParameter('webhooks.urlNotAbsolute');
  }
  const schemes = allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    throw invalidParameter(allowPrivateNetworks ? 'webhooks.urlHttpOrHttps' : 'webhooks.urlHttpsOnly');
  if (url.username || url.password) throw invalidParameter('webhooks.urlUserInfo');
  const address = ipLiteralOf(url);
  if (!allowPrivateNetworks && address !== undefined && !isPublicAddress(address))
    throw invalidParameter('webhooks.urlPrivateAddress');
  // What is stored is the normalized form, which percent-encoding and punycode can make much longer.
  const normalized = url.toString();
  if (normalized.length > MAX_URL_LENGTH)
    throw invalidParameter('webhooks.urlTooLong', { max: MAX_URL_LENGTH });
  return normalized;
}

/**
 * Delay before retry number `retry` (1-based): the schedule's entry ±20%, or the receiver's Retry-After,
 * which is capped at the schedule's longest wait so that a receiver cannot park a delivery for months.
 */
export function retryDelayMs(
  schedule: number[],
  retry: number,
  retryAfterMs?: number,
  random = Math.random,
): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0)
    return Math.min(retryAfterMs, Math.max(...schedule) * 1000);
  const base = schedule[Math.min(retry, schedule.length) - 1] * 1000;
  return Math.round(base * (0.8 + random() * 0.4));
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** An endpoint's circuit breaker as its owner sees it. */
export interface EndpointStateView {
  state: 'closed' | 'open' | 'half_open';
  consecutive_failures: number;
  open_until: Date | null;
  last_error: string | null;
  last_failure_at: Date | null;
}

/**
 * `open` while deliveries wait for the breaker, `half_open` when its wait is over and one probe may go,
 * `closed` otherwise (failures below the threshold).
 */
export function endpointState(
  breaker:
    | { failures: number; openUntil: Date | null; lastError: string | null; lastFailureAt: Date | null }
    | undefined,
  threshold: number,
  now: Date,
): EndpointStateView {
  const failures = breaker?.failures ?? 0;
  const state =
    failures < threshold || !breaker
      ? 'closed'
      : breaker.openUntil && breaker.openUntil.getTime() > now.getTime()
        ? 'open'
        : 'half_open';
  return {
    state,
    consecutive_failures: failures,
    open_until: state === 'open' ? (breaker?.openUntil ?? null) : null,
    last_error: failures > 0 ? (breaker?.lastError ?? null) : null,
    last_failure_at: failures > 0 ? (breaker?.lastFailureAt ?? null) : null,
  };
}
