import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface BeneficiaryProfile {
  code: string;
  name: string;
  email: string | null;
  phone: string | null;
  birthday: string | null;
  active: boolean;
  /** Null when the beneficiary has no benefit plan. */
  benefitPlanActive: boolean | null;
  mealPlan: boolean;
  appointment: boolean;
}

interface ProfileRow {
  code: string;
  name: string;
  email: string | null;
  phone: string | null;
  birthday: string | null;
  active: number;
  benefitPlanActive: number | null;
  mealPlan: number | null;
  appointment: number | null;
}

/** A beneficiary's profile with its benefit plan, for the code lookup and the app validation. */
@Injectable()
export class BeneficiaryProfilesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findBy(field: 'cpf' | 'code', value: string): Promise<BeneficiaryProfile | undefined> {
    const rows: ProfileRow[] = await this.dataSource.query(
      `SELECT b.code, b.name, b.email, b.phone, DATE_FORMAT(b.birthday, '%Y-%m-%d') AS birthday, b.active,
              bp.active AS benefitPlanActive, bp.meal_plan AS mealPlan, bp.appointment
       FROM beneficiaries b LEFT JOIN benefit_plans bp ON bp.id = b.benefit_plan_id
       WHERE b.${field === 'cpf' ? 'cpf' : 'code'} = ?`,
      [value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      code: row.code,
      name: row.name,
      email: row.email,
      phone: row.phone,
      birthday: row.birthday,
      active: Boolean(row.active),
      benefitPlanActive: row.benefitPlanActive === null ? null : Boolean(row.benefitPlanActive),
      mealPlan: Boolean(row.mealPlan),
      appointment: Boolean(row.appointment),
    };
  }
}
