export const WEBHOOK_QUEUE = 'webhook-deliveries';
export const DELIVER_JOB = 'deliver';

/** Subscription types a place can register, and the event types each one receives. */
export const WEBHOOK_TYPES = ['CHECKIN'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];
/**
 * The subscription a gym makes with the Wellhub-compatible integration-setup routes (format `wellhub`, event
 * `checkin`); not a type of `/partner/webhook/*`.
 */
export const WELLHUB_CHECKIN = 'WELLHUB_CHECKIN';

/** A visit recorded by the gym, or a member check-in made in the app (with the `endpoint` that confirms it). */
export const CHECK_IN_CREATED = 'CHECK_IN_CREATED';
/** A member check-in confirmed by the gym (at its endpoint or by its token): the visit is recorded. */
export const CHECK_IN_VALIDATED = 'CHECK_IN_VALIDATED';
/** A member check-in cancelled by the member, or replaced by a newer one. */
export const CHECK_IN_CANCELLED = 'CHECK_IN_CANCELLED';
export type CheckInEventType =
  typeof CHECK_IN_CREATED | typeof CHECK_IN_VALIDATED | typeof CHECK_IN_CANCELLED;
export const TEST_EVENT = 'TEST';

/**
 * A run of one endpoint's attempts, started by the poller (its job id is the run's hold on the endpoint) with
 * its first batch: the runner sends them at once, writes their outcomes together and, while the endpoint
 * answers, goes on with its next due attempts. The rows say whether each attempt is still wanted; the job
 * carries no secret.
 */
export interface DeliverJobData {
  /** For people reading the queue dashboard: the place, as `Name (CODE)`. Never read by the runner. */
  place?: string;
  /** For people reading the queue dashboard: the host the deliveries go to (no path, query or credentials). */
  target?: string;
  subscriptionId?: string;
  /** The batch's attempts, each `dlv_….r<redeliveries>.a<attempt>` (see attemptName). */
  attempts?: string[];
  /** The endpoint had failures when the batch was handed over: a success closes its breaker. */
  failing?: boolean;
}
