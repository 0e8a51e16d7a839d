import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BeneficiaryEntity } from '../../beneficiaries/entities/beneficiary.entity';
import { PlaceEntity } from '../../partners/entities/place.entity';
import { PlanEntity } from '../../partners/entities/plan.entity';
import { IDENTIFIER } from '../../../database/identifier-column';

/** What is stored; `expired` is not: a pending check-in past `expires_at` reads as expired. */
export type StoredCheckInStatus = 'pending' | 'validated' | 'cancelled' | 'expired';
export type CancelReason = 'member' | 'replaced';

/**
 * A check-in a member made in the platform's app at a gym: pending until the gym confirms it (into a visit),
 * the member cancels or replaces it, or `expires_at` passes.
 *
 * Uniqueness that must hold with creations racing on any number of processes is left to unique indexes that
 * lead with `pending`, a generated column that is 1 while the row is pending and NULL otherwise (MariaDB has no
 * partial index, and a unique index never counts a row with a NULL in it as a duplicate): one pending check-in
 * per beneficiary, and one pending check-in per token at a gym. A pending row past `expires_at` still holds its
 * token until something flips it to `expired`: the creation that collides with it does.
 *
 * Like visits, only the beneficiary is a foreign key (its row is locked by every write here anyway); places are
 * never deleted and plans only soft-deleted.
 */
@Entity('member_check_ins')
@Index('UQ_member_check_ins_pending_beneficiary', ['pending', 'beneficiaryId'], { unique: true })
@Index('UQ_member_check_ins_pending_token', ['pending', 'placeId', 'token'], { unique: true })
@Index('UQ_member_check_ins_confirmation', ['confirmationTokenHash'], { unique: true })
@Index('IDX_member_check_ins_place_token', ['placeId', 'token'])
@Index('IDX_member_check_ins_place_started', ['placeId', 'startedAt'])
@Index('IDX_member_check_ins_beneficiary_started', ['beneficiaryId', 'startedAt'])
export class MemberCheckInEntity {
  @PrimaryColumn({ type: 'char', length: 36, ...IDENTIFIER })
  id: string;

  @Column({ name: 'beneficiary_id', type: 'int', unsigned: true })
  beneficiaryId: number;

  @ManyToOne(() => BeneficiaryEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'beneficiary_id' })
  beneficiary?: BeneficiaryEntity;

  @Column({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  @ManyToOne(() => PlaceEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'place_id' })
  place?: PlaceEntity;

  /** The gym's plan the visit will be for; null at a gym without plans. */
  @Column({ name: 'plan_id', type: 'int', unsigned: true, nullable: true })
  planId: number | null;

  @ManyToOne(() => PlanEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'plan_id' })
  plan?: PlanEntity | null;

  /** The 6 digits the member shows at the desk; unique among the gym's pending check-ins. */
  @Column({ type: 'char', length: 6, ...IDENTIFIER })
  token: string;

  /** SHA-256 (hex) of the confirmation token in the `endpoint` URL; the token itself is never stored here. */
  @Column({ name: 'confirmation_token_hash', type: 'char', length: 64, ...IDENTIFIER })
  confirmationTokenHash: string;

  @Column({ type: 'varchar', length: 16 })
  status: StoredCheckInStatus;

  @Column({ name: 'cancel_reason', type: 'varchar', length: 16, nullable: true })
  cancelReason: CancelReason | null;

  @Column({ name: 'started_at', type: 'datetime', precision: 3 })
  startedAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'validated_at', type: 'datetime', precision: 3, nullable: true })
  validatedAt: Date | null;

  @Column({ name: 'cancelled_at', type: 'datetime', precision: 3, nullable: true })
  cancelledAt: Date | null;

  /** The visit the confirmation recorded. */
  @Column({ name: 'visit_id', type: 'bigint', unsigned: true, nullable: true })
  visitId: string | null;

  /**
   * 16 bytes while pending, NULL once ended (GROWTH_RESERVE): the end of a check-in writes its new state in the
   * space this gives up, so the row does not grow. Never read.
   */
  @Column({ name: 'growth_reserve', type: 'varbinary', length: 16, nullable: true, select: false })
  growthReserve?: Buffer | null;

  /**
   * 1 while pending, NULL otherwise. Generated from `status` alone: MariaDB refuses a stored expression that
   * returns a CHAR column's value (it would depend on the session's PAD_CHAR_TO_FULL_LENGTH).
   */
  @Column({
    type: 'tinyint',
    unsigned: true,
    nullable: true,
    generatedType: 'STORED',
    asExpression: "IF(`status` = 'pending', 1, NULL)",
    insert: false,
    update: false,
  })
  pending: number | null;
}
