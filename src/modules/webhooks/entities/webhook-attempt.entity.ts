import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IDENTIFIER } from '../../../database/identifier-column';

/** One HTTP attempt of a delivery, for support and for the delivery log. */
@Entity('webhook_attempts')
@Index('IDX_webhook_attempts_delivery', ['deliveryId', 'id'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id: string;

  @Column({ name: 'delivery_id', type: 'varchar', length: 40, ...IDENTIFIER })
  deliveryId: string;

  @Column({ type: 'int', unsigned: true })
  number: number;

  /** Where this attempt went: the subscription's URL at the time, which PUT /partner/webhook/update changes. */
  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ name: 'status_code', type: 'smallint', unsigned: true, nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'int', unsigned: true })
  durationMs: number;

  /** The first 4 KB of the answer. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  error: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
