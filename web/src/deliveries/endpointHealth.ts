import type { EndpointState } from '../types';

/** How an endpoint is doing, in the words the console shows: what the service reports, put in one word. */
export type EndpointHealthKind = 'healthy' | 'failing' | 'open' | 'probing' | 'disabled';

export interface EndpointHealthView {
  kind: EndpointHealthKind;
  /** When it started failing, when the service says (its webhook list and the overview do). */
  since: string | null;
  /** Its last failed attempt. */
  lastFailureAt: string | null;
  until: string | null;
  failures: number;
  lastError: string | null;
}

/**
 * `disabled` when the webhook is off; `open` while the breaker holds its deliveries; `probing` when one probe may
 * go (half open); `failing` while its last attempts failed; `healthy` otherwise.
 */
export function endpointHealth(state: EndpointState | undefined, active = true): EndpointHealthView {
  const failures = state?.consecutive_failures ?? 0;
  const base = {
    since: state?.failing_since ?? null,
    lastFailureAt: state?.last_failure_at ?? null,
    until: state?.open_until ?? null,
    failures,
    lastError: state?.last_error ?? null,
  };
  if (!active) return { ...base, kind: 'disabled' };
  if (state?.state === 'open') return { ...base, kind: 'open' };
  if (state?.state === 'half_open') return { ...base, kind: 'probing' };
  if (failures > 0) return { ...base, kind: 'failing' };
  return { ...base, kind: 'healthy' };
}

export const HEALTH_COLOR = {
  healthy: 'success',
  failing: 'error',
  open: 'error',
  probing: 'warning',
  disabled: 'default',
} as const;
