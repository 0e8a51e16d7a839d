import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { IDENTIFIER } from '../../../database/identifier-column';

export type DeliveryStatus = 'pending' | 'queued' | 'delivered' | 'failed';

/**
 * One event to one subscription, with the event itself (its id, type and body: every event is written for one
 * subscription, so it has this one delivery). `pending` rows have made no attempt yet, `queued` ones have failed at least
 * once and wait for their retry; `delivered` and `failed` are final until a redelivery. The row alone says when
 * the next attempt is due (`next_attempt_at`); which run sends an endpoint's deliveries is its row of
 * `webhook_endpoint_states`. Redis and Bull run attempts, they remember nothing that the database does not.
 */
@Entity('webhook_deliveries')
@Index('IDX_webhook_deliveries_status', ['status', 'createdAt'])
// One index serves the schedule (claims, due endpoints, the backlog): each more costs upkeep on every move.
@Index('IDX_webhook_deliveries_endpoint_due', ['subscriptionId', 'nextAttemptAt'])
@Index('IDX_webhook_deliveries_place', ['placeId', 'createdAt'])
export class WebhookDeliveryEntity {
  /** `dlv_` + 32 hex characters; also the Bull job id, so it must never repeat, even across database resets. */
  @PrimaryColumn({ type: 'varchar', length: 40, ...IDENTIFIER })
  id: string;

  /** `evt_` + 32 hex characters; sent as `webhook-id`, the same on every attempt. */
  @Column({ name: 'event_id', type: 'varchar', length: 40, ...IDENTIFIER })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 32 })
  eventType: string;

  /** The event's JSON body, serialized once so that every attempt signs the same bytes. */
  @Column({ type: 'mediumtext' })
  payload: string;

  /** The `X-Request-Id` of the request that caused the event; every attempt's log lines carry it. */
  @Column({ name: 'request_id', type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @Column({ name: 'subscription_id', type: 'char', length: 36, ...IDENTIFIER })
  subscriptionId: string;

  @Column({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  /** The subscription's URL when the event happened, then the URL of the latest attempt. */
  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 16, ...IDENTIFIER })
  status: DeliveryStatus;

  @Column({ type: 'int', unsigned: true, default: 0 })
  attempts: number;

  /**
   * How many times the delivery was redelivered. Each redelivery is a new chain of Bull attempts whose job id
   * carries this number, so Bull never takes it for a job it already has, and jobs of earlier chains are
   * told apart and send nothing.
   */
  @Column({ type: 'int', unsigned: true, default: 0 })
  redeliveries: number;

  @Column({ name: 'last_status_code', type: 'smallint', unsigned: true, nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ name: 'last_attempt_at', type: 'datetime', precision: 3, nullable: true })
  lastAttemptAt: Date | null;

  /** When the next attempt is due, while the delivery is `pending` or `queued`; null once it is over. */
  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3, nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'delivered_at', type: 'datetime', precision: 3, nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
