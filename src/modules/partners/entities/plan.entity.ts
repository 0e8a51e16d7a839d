import {
  Column,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Timestamped } from '../../../database/timestamped';
import { PlaceEntity } from './place.entity';
import { IDENTIFIER } from '../../../database/identifier-column';

/** A gym's plan (what the gym sells); its tier is compared with the tier a benefit plan grants. */
@Entity('plans')
export class PlanEntity extends Timestamped {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id: number;

  @Index('IDX_plans_place')
  @Column({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  @ManyToOne(() => PlaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'place_id' })
  place?: PlaceEntity;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'char', length: 8, unique: true })
  code: string;

  @Column({ type: 'int', unsigned: true })
  tier: number;

  @Column({ name: 'external_reference', type: 'varchar', length: 255, nullable: true })
  externalReference: string | null;

  @DeleteDateColumn({ name: 'deleted_at', type: 'datetime', precision: 3, nullable: true })
  deletedAt: Date | null;
}
