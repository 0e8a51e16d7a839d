import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** What a beneficiary's employer pays for: the highest gym tier it grants and a monthly visit limit. */
@Entity('benefit_plans')
export class BenefitPlanEntity {
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

  @CreateDateColumn({
    name: 'created_at',
    type: 'datetime',
    precision: 3,
    default: () => 'CURRENT_TIMESTAMP(3)',
  })
  createdAt: Date;

  @UpdateDateColumn({
    name: 'updated_at',
    type: 'datetime',
    precision: 3,
    default: () => 'CURRENT_TIMESTAMP(3)',
    onUpdate: 'CURRENT_TIMESTAMP(3)',
  })
  updatedAt: Date;
}
