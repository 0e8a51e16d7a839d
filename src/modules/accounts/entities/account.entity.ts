import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';
import { PartnerEntity } from '../../partners/entities/partner.entity';

export const ROLES = ['operator', 'support', 'gym'] as const;
export type Role = (typeof ROLES)[number];

/** A person who signs in to the console: platform staff (operator, support) or a gym's or chain's staff. */
@Entity('accounts')
export class AccountEntity extends Timestamped {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id: number;

  /** Stored in lower case; unique. */
  @Index('UQ_accounts_email', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

  /** A gym account of a whole chain: every place of this partner, and the partner key. */
  @Index('IDX_accounts_partner')
  @Column({ name: 'partner_id', type: 'int', unsigned: true, nullable: true })
  partnerId: number | null;

  @ManyToOne(() => PartnerEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'partner_id' })
  partner?: PartnerEntity | null;

  /** argon2id (PHC string); null until the invitation link is used. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'last_login_at', type: 'datetime', precision: 3, nullable: true })
  lastLoginAt: Date | null;
}
