import { Column, Entity, Generated, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';
import { PartnerEntity } from './partner.entity';
import { IDENTIFIER } from '../../../database/identifier-column';

/** A gym unit; holds the `place_api_key` that the gym's systems send as `x-api-key`. */
@Entity('places')
export class PlaceEntity extends Timestamped {
  @PrimaryColumn({ type: 'char', length: 36, ...IDENTIFIER })
  id: string;

  @Index('IDX_places_partner')
  @Column({ name: 'partner_id', type: 'int', unsigned: true })
  partnerId: number;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'partner_id' })
  partner?: PartnerEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'char', length: 8, unique: true })
  code: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /**
   * The place's number in the Wellhub-compatible access control (`X-Gym-Id`, `gym.id`): given by the database
   * on insert, from 100001 upwards (the table's AUTO_INCREMENT start).
   */
  @Index('UQ_places_gym_id', { unique: true })
  @Column({ name: 'gym_id', type: 'int', unsigned: true })
  @Generated('increment')
  gymId: number;

  @Column({ name: 'api_key_hash', type: 'char', length: 64, unique: true })
  apiKeyHash: string;

  @Column({ name: 'api_key_ciphertext', type: 'varchar', length: 255 })
  apiKeyCiphertext: string;

  @Column({ name: 'key_version', type: 'int', unsigned: true, default: 1 })
  keyVersion: number;

  /**
   * What a check-in needs of the place's other tables, kept on its row so the check-in query reads one row:
   * its active plans as JSON `[{id, code, tier}]` (null: none), written by PlaceSummaryRepository.
   */
  @Column({ name: 'check_in_plans', type: 'text', nullable: true })
  checkInPlans: string | null;

  /** Whether an active CHECKIN webhook subscription exists; written by PlaceSummaryRepository. */
  @Column({ name: 'check_in_webhook', type: 'boolean', default: false })
  checkInWebhook: boolean;

  /** The active CHECKIN subscription's id (null: none); written by PlaceSummaryRepository. */
  @Column({ name: 'check_in_subscription_id', type: 'char', length: 36, nullable: true, ...IDENTIFIER })
  checkInSubscriptionId: string | null;

  /** The active CHECKIN subscription's URL (null: none); written by PlaceSummaryRepository. */
  @Column({ name: 'check_in_webhook_url', type: 'varchar', length: 2048, nullable: true })
  checkInWebhookUrl: string | null;

  /** Whether an active Wellhub-format `checkin` subscription exists; written by PlaceSummaryRepository. */
  @Column({ name: 'wellhub_webhook', type: 'boolean', default: false })
  wellhubWebhook: boolean;
}
