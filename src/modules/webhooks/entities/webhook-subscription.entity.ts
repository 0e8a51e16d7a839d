import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';
import type { WebhookFormat } from '../webhook-formats';
import { IDENTIFIER } from '../../../database/identifier-column';

/**
 * A URL a place registered for one event type; one per type per place. `CHECKIN` (`/partner/webhook/*`) and
 * `WELLHUB_CHECKIN` (`/v1/systems/gyms/:gym_id/webhooks`) may both exist for a place.
 */
@Entity('webhook_subscriptions')
@Index('UQ_webhook_subscriptions_place_type', ['placeId', 'type'], { unique: true })
export class WebhookSubscriptionEntity extends Timestamped {
  @PrimaryColumn({ type: 'char', length: 36, ...IDENTIFIER })
  id: string;

  @Column({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
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

  /** How its events are written and signed: see webhook-formats.ts. */
  @Column({ type: 'varchar', length: 16, default: 'standard' })
  format: WebhookFormat;

  /** Wellhub format: the member's e-mail and phone go into each `checkin` event too. */
  @Column({ name: 'additional_data', type: 'boolean', default: false })
  additionalData: boolean;
}
