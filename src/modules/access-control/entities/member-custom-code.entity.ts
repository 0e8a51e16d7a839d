import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';
import { BeneficiaryEntity } from '../../beneficiaries/entities/beneficiary.entity';
import { IDENTIFIER } from '../../../database/identifier-column';

/**
 * A gym system's own code for a member at one gym (Wellhub's `custom_code`, up to 13 characters): set by
 * `POST /access/v1/validate` and the `/access/v1/code/:gympass_id` routes, shown with the member's visits there.
 */
@Entity('member_custom_codes')
@Index('IDX_member_custom_codes_place', ['placeId'])
export class MemberCustomCodeEntity extends Timestamped {
  @PrimaryColumn({ name: 'beneficiary_id', type: 'int', unsigned: true })
  beneficiaryId: number;

  @ManyToOne(() => BeneficiaryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'beneficiary_id', foreignKeyConstraintName: 'FK_member_custom_codes_beneficiary' })
  beneficiary?: BeneficiaryEntity;

  @PrimaryColumn({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  @Column({ name: 'custom_code', type: 'varchar', length: 13 })
  customCode: string;
}
