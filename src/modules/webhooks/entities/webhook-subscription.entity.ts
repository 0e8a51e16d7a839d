import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';

/** A URL a place registered for one event type; one per type per place. */
@Entity('webhook_subscriptions')
@Index('UQ_webhook_subscriptions_place_type', ['placeId', 'type'], { unique: true })
export class WebhookSubscriptionEntity extends Timestamped {
  @PrimaryColumn({ type: 'char', length: 36 })
  id: string;

  @Column({ name: 'place_id', type: 'char', length: 36 })
  placeId: string;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** The `whsec_` signing secret, sealed with KEY_ENCRYPTION_SECRET. */
  @Column({ name: 'secret_ciphertext', type: 'varchar', length: 255 })
  secretCiphertext: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;
}
