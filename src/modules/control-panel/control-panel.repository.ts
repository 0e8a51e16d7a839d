import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error';
import { BeneficiaryEntity } from '../beneficiaries/entities/beneficiary.entity';
import { BenefitPlanEntity } from '../beneficiaries/entities/benefit-plan.entity';
import { PartnerEntity } from '../partners/entities/partner.entity';
import { PlaceEntity } from '../partners/entities/place.entity';
import { PlanEntity } from '../partners/entities/plan.entity';

export function isDuplicateEntry(error: unknown): boolean {
  return (
    error instanceof QueryFailedError && (error.driverError as { code?: string })?.code === 'ER_DUP_ENTRY'
  );
}

/** Runs `write`; a unique-index collision becomes `invalid_parameter` with `message`. */
export async function refusingDuplicates<T>(write: () => Promise<T>, message: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateEntry(error)) throw new DomainError('invalid_parameter', message);
    throw error;
  }
}

export interface BeneficiaryWithPlan extends BeneficiaryEntity {
  benefitPlanCode: string | null;
}

export interface VisitRow {
  id: string;
  beneficiaryCode: string;
  cpf: string;
  planCode: string | null;
  createdAt: Date;
}

export interface StoredBeneficiaryRow {
  cpf: string;
  code: string;
  name: string;
  email: string | null;
  phone: string | null;
  birthday: string | null;
  active: number;
  benefit_plan_id: number | null;
}

/** The control panel's queries. */
@Injectable()
export class ControlPanelRepository {
  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  get partners() {
    return this.dataSource.getRepository(PartnerEntity);
  }

  get places() {
    return this.dataSource.getRepository(PlaceEntity);
  }

  get plans() {
    return this.dataSource.getRepository(PlanEntity);
  }

  get benefitPlans() {
    return this.dataSource.getRepository(BenefitPlanEntity);
  }

  get beneficiaries() {
    return this.dataSource.getRepository(BeneficiaryEntity);
  }

  async rotatePartnerKey(id: number, hash: string, ciphertext: string): Promise<void> {
    await this.partners.update(id, {
      apiKeyHash: hash,
      apiKeyCiphertext: ciphertext,
      keyVersion: () => 'key_version + 1',
    });
  }

  async rotatePlaceKey(id: string, hash: string, ciphertext: string): Promise<void> {
    await this.places.update(id, {
      apiKeyHash: hash,
      apiKeyCiphertext: ciphertext,
      keyVersion: () => 'key_version + 1',
    });
  }

  async findBeneficiary(cpf: string): Promise<BeneficiaryWithPlan | undefined> {
    const beneficiary = await this.beneficiaries.findOne({
      where: { cpf },
      relations: { benefitPlan: true },
    });
    if (!beneficiary) return undefined;
    return Object.assign(beneficiary, { benefitPlanCode: beneficiary.benefitPlan?.code ?? null });
  }

  async visitsOfPlace(
    placeId: string,
    from: Date | undefined,
    to: Date | undefined,
    offset: number,
    limit: number,
  ) {
    const conditions = ['v.place_id = ?'];
    const params: unknown[] = [placeId];
    if (from) {
      conditions.push('v.created_at >= ?');
      params.push(from);
    }
    if (to) {
      conditions.push('v.created_at < ?');
      params.push(to);
    }
    const where = conditions.join(' AND ');
    const rows: VisitRow[] = await this.dataSource.query(
      `SELECT v.id, b.code AS beneficiaryCode, b.cpf, pl.code AS planCode, v.created_at AS createdAt
       FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id LEFT JOIN plans pl ON pl.id = v.plan_id
       WHERE ${where} ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM visits v WHERE ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  async storedBeneficiaries(manager: EntityManager, cpfs: string[]): Promise<StoredBeneficiaryRow[]> {
    if (cpfs.length === 0) return [];
    return manager.query(
      `SELECT cpf, code, name, email, phone, DATE_FORMAT(birthday, '%Y-%m-%d') AS birthday, active, benefit_plan_id
       FROM beneficiaries WHERE cpf IN (?)`,
      [cpfs],
    );
  }

  /** code → CPF of the beneficiaries that hold any of these codes. */
  async codeOwners(manager: EntityManager, codes: string[]): Promise<Map<string, string>> {
    if (codes.length === 0) return new Map();
    const rows: { cpf: string; code: string }[] = await manager.query(
      'SELECT cpf, code FROM beneficiaries WHERE code IN (?)',
      [codes],
    );
    return new Map(rows.map((row) => [row.code, row.cpf]));
  }

  /** One multi-row upsert by CPF; every column is written from the merged row. */
  async upsertBeneficiaries(manager: EntityManager, rows: unknown[][]): Promise<void> {
    await manager.query(
      `INSERT INTO beneficiaries (cpf, code, name, email, phone, birthday, active, benefit_plan_id) VALUES ?
       ON DUPLICATE KEY UPDATE code = VALUES(code), name = VALUES(name), email = VALUES(email), phone = VALUES(phone),
         birthday = VALUES(birthday), active = VALUES(active), benefit_plan_id = VALUES(benefit_plan_id)`,
      [rows],
    );
  }
}
