export const WEBHOOK_QUEUE = 'webhook-deliveries';
export const DELIVER_JOB = 'deliver';
export const BACKOFF_STRATEGY = 'schedule';

/** Subscription types a place can register, and the event types each one receives. */
export const WEBHOOK_TYPES = ['CHECKIN'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

export const CHECK_IN_CREATED = 'CHECK_IN_CREATED';
export const TEST_EVENT = 'TEST';

export interface DeliverJobData {
  deliveryId: string;
  /**
   * The delivery's redelivery count when the job was added: which chain of attempts the job belongs to.
   * Absent (0) in jobs added before redeliveries were counted.
   */
  redeliveries?: number;
}
