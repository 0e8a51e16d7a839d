import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { beneficiaryColumn, BeneficiaryIdentifierType } from '../eligibility/track-usage-request';

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
  keyVersion: number;
  code: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  birthday: string | null;
  active: number;
  benefitPlanActive: number | null;
  mealPlan: number | null;
  appointment: number | null;
}

/** What a lookup at a place reads: the version of the place's key now, and the beneficiary if found. */
export interface PlaceLookup {
  keyVersion: number;
  profile: BeneficiaryProfile | undefined;
}

/** A beneficiary's profile with its benefit plan, for the code lookup and the app validation. */
@Injectable()
export class BeneficiaryProfilesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Reads the place's key version with the beneficiary (`by` null looks none up), so a key rotated in another
   * process is refused at once, as on the check-in routes. Undefined when the place itself is gone.
   */
  async findAtPlace(
    placeId: string,
    by: { field: BeneficiaryIdentifierType; value: string } | null,
  ): Promise<PlaceLookup | undefined> {
    const condition = by === null ? 'FALSE' : `b.${beneficiaryColumn(by.field)} = ?`;
    const rows: ProfileRow[] = await this.dataSource.query(
      `SELECT p.key_version AS keyVersion, b.code, b.name, b.email, b.phone,
              DATE_FORMAT(b.birthday, '%Y-%m-%d') AS birthday, b.active,
              bp.active AS benefitPlanActive, bp.meal_plan AS mealPlan, bp.appointment
       FROM places p
       LEFT JOIN beneficiaries b ON ${condition}
       LEFT JOIN benefit_plans bp ON bp.id = b.benefit_plan_id
       WHERE p.id = ?`,
      [...(by === null ? [] : [by.value]), placeId],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      keyVersion: Number(row.keyVersion),
      profile:
        row.code === null
          ? undefined
          : {
              code: row.code,
              name: row.name,
              email: row.email,
              phone: row.phone,
              birthday: row.birthday,
              active: Boolean(row.active),
              benefitPlanActive: row.benefitPlanActive === null ? null : Boolean(row.benefitPlanActive),
              mealPlan: Boolean(row.mealPlan),
              appointment: Boolean(row.appointment),
            },
    };
  }
}
