import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { Timestamped } from '../../../database/timestamped';

/** What a beneficiary's employer pays for: the highest gym tier it grants and a monthly visit limit. */
@Entity('benefit_plans')
export class BenefitPlanEntity extends Timestamped {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id: number;

  @Column({ type: 'varchar', length: 32, unique: true })
  code: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'int', unsigned: true })
  tier: number;

  /** Null means unlimited. */
  @Column({ name: 'monthly_visit_limit', type: 'int', unsigned: true, nullable: true })
  monthlyVisitLimit: number | null;

  @Column({ name: 'meal_plan', type: 'boolean', default: false })
  mealPlan: boolean;

  @Column({ type: 'boolean', default: false })
  appointment: boolean;

  @Column({ type: 'boolean', default: true })
  active: boolean;
}
