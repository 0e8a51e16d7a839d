import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';
import { BenefitPlanEntity } from './benefit-plan.entity';
import { IDENTIFIER } from '../../../database/identifier-column';

/** A person entitled to visits; identified by CPF or by an 8-character code. */
@Entity('beneficiaries')
export class BeneficiaryEntity extends Timestamped {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id: number;

  @Column({ type: 'char', length: 11, unique: true, ...IDENTIFIER })
  cpf: string;

  @Column({ type: 'char', length: 8, unique: true })
  code: string;

  /**
   * 13 digits, first not 0 (Wellhub's `gympass_id` / `unique_token`): given by the database when the row is
   * inserted (a trigger draws it from a sequence, see migration WellhubIdentities), never given twice. Read as
   * a string (BIGINT). The 0 default never stays: the trigger replaces whatever an INSERT writes.
   */
  @Index('UQ_beneficiaries_member_number', { unique: true })
  @Column({ name: 'member_number', type: 'bigint', unsigned: true, default: 0 })
  memberNumber: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  phone: string | null;

  @Column({ type: 'date', nullable: true })
  birthday: string | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Index('IDX_beneficiaries_benefit_plan')
  @Column({ name: 'benefit_plan_id', type: 'int', unsigned: true, nullable: true })
  benefitPlanId: number | null;

  @ManyToOne(() => BenefitPlanEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'benefit_plan_id' })
  benefitPlan?: BenefitPlanEntity | null;

  /**
   * Incremented by every transaction that records a visit or changes a member check-in of this beneficiary, so
   * that two of them conflict on a Galera cluster (see EligibilityRepository.touchStatement). Not data to read.
   */
  @Column({ name: 'check_in_version', type: 'bigint', unsigned: true, default: 0, select: false })
  checkInVersion?: string;
}
