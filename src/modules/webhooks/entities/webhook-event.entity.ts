import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Something that happened at a place, as sent to its subscription (the body of every delivery). */
@Entity('webhook_events')
@Index('IDX_webhook_events_place_created', ['placeId', 'createdAt'])
export class WebhookEventEntity {
  /** `evt_` + 32 hex characters; sent as `webhook-id`, the same on every attempt. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ name: 'place_id', type: 'char', length: 36 })
  placeId: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  /** The JSON body, serialized once so that every attempt signs the same bytes. */
  @Column({ type: 'mediumtext' })
  payload: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** The `X-Request-Id` of the request that caused the event; every attempt's log lines carry it. */
  @Column({ name: 'request_id', type: 'varchar', length: 64, nullable: true })
  requestId: string | null;
}
