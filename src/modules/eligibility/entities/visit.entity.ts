import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { BeneficiaryEntity } from '../../beneficiaries/entities/beneficiary.entity';
import { PlaceEntity } from '../../partners/entities/place.entity';
import { PlanEntity } from '../../partners/entities/plan.entity';
import { IDENTIFIER } from '../../../database/identifier-column';

/**
 * A recorded track usage. `(beneficiary_id, created_at)` serves both eligibility queries (the latest visit
 * in the recent window and the count since the start of the month); `(place_id, created_at)` the panel's list.
 *
 * Only the beneficiary is a foreign key (its row is locked by the visit's transaction anyway). The place and
 * the plan are not: a foreign key check takes a shared lock on the parent row, and every check-in at a gym
 * would queue on its place's row and its plan's row (about 5-10% of register throughput in `npm run bench`).
 * Nothing is lost: the check-in reads both in its own transaction, places are never deleted and plans only
 * soft-deleted.
 */
@Entity('visits')
@Index('IDX_visits_beneficiary_created', ['beneficiaryId', 'createdAt'])
@Index('IDX_visits_place_created', ['placeId', 'createdAt'])
export class VisitEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
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

  @Column({ name: 'plan_id', type: 'int', unsigned: true, nullable: true })
  planId: number | null;

  @ManyToOne(() => PlanEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'plan_id' })
  plan?: PlanEntity | null;

  /** Stamped by the server's clock, never by the client. */
  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
