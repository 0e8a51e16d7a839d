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

/** One attempt of one delivery. The row says whether it is still wanted; the job carries no secret. */
export interface DeliverJobData {
  deliveryId: string;
  /** The delivery's redelivery count when the attempt was handed over: which chain it belongs to. */
  redeliveries?: number;
  /** For people reading the queue dashboard: the place, as `Name (CODE)`. Never read by the worker. */
  place?: string;
  /** For people reading the queue dashboard: the host the delivery goes to (no path, query or credentials). */
  target?: string;
  /** The attempt's number (the row's `attempts` + 1); jobs of the earlier layout have none and send nothing. */
  attempt?: number;
  /** The endpoint had failures when the attempt was handed over: a success closes its breaker. */
  failing?: boolean;
}
