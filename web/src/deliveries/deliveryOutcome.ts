import type { Delivery } from '../types';

/** What became of a delivery, as the console names it. */
export type DeliveryOutcomeKind = 'delivered' | 'failed' | 'retrying' | 'paused' | 'waiting';

export interface DeliveryOutcome {
  kind: DeliveryOutcomeKind;
  /** The receiver's last answer: `HTTP 503`, or why none came; null before any attempt. */
  answer: string | null;
}

function succeeded(code: number | null): boolean {
  return code !== null && code >= 200 && code < 300;
}

/**
 * delivered and failed as the service says; a delivery still on its way is `retrying` after a failed attempt,
 * `paused` while its endpoint's breaker holds it, and `waiting` for its first attempt (or a redelivery's).
 */
export function deliveryOutcome(
  delivery: Pick<
    Delivery,
    'status' | 'last_status_code' | 'last_error' | 'last_attempt_at' | 'endpoint_state'
  >,
): DeliveryOutcome {
  const answer =
    delivery.last_status_code !== null && delivery.last_status_code !== undefined
      ? `HTTP ${delivery.last_status_code}`
      : (delivery.last_error ?? null);
  if (delivery.status === 'delivered') return { kind: 'delivered', answer };
  if (delivery.status === 'failed') return { kind: 'failed', answer };
  if (delivery.endpoint_state?.state === 'open') return { kind: 'paused', answer };
  const failedBefore = delivery.last_attempt_at !== null && !succeeded(delivery.last_status_code);
  return { kind: failedBefore ? 'retrying' : 'waiting', answer };
}

export const OUTCOME_COLOR = {
  delivered: 'success',
  failed: 'error',
  retrying: 'warning',
  paused: 'error',
  waiting: 'info',
} as const;
