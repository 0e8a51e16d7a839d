import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { MessageKey } from '../../common/i18n/messages';
import { BeneficiaryEntity } from './entities/beneficiary.entity';
import { BenefitPlanEntity } from './entities/benefit-plan.entity';
import { escapeLike } from '../../database/like';
import { insertUnique } from '../../database/unique-insert';
import { normalizeCpf } from '../../common/domain/cpf';

export interface BeneficiaryWithPlan extends BeneficiaryEntity {
  benefitPlanCode: string | null;
}

export interface BeneficiaryListRow {
  cpf: string;
  code: string;
  memberNumber: string;
  name: string;
  email: string | null;
  active: number;
  benefitPlanCode: string | null;
}

export interface StoredBeneficiaryRow {
  cpf: string;
  code: string;
  email: string | null;
  phone: string | null;
  birthday: string | null;
  active: number;
}

export type NewBenefitPlan = Pick<
  BenefitPlanEntity,
  'code' | 'name' | 'tier' | 'monthlyVisitLimit' | 'mealPlan' | 'appointment'
>;
export type NewBeneficiary = Pick<
  BeneficiaryEntity,
  'cpf' | 'code' | 'name' | 'email' | 'phone' | 'birthday' | 'active' | 'benefitPlanId'
>;
export type BeneficiaryChanges = Partial<Omit<NewBeneficiary, 'cpf' | 'code'>>;
export type BenefitPlanChanges = Partial<Omit<NewBenefitPlan, 'code'> & Pick<BenefitPlanEntity, 'active'>>;

/** Column values of one bulk row, in the order of `upsertBeneficiaries`. */
export type BeneficiaryTuple = [
  cpf: string,
  code: string,
  name: string,
  email: string | null,
  phone: string | null,
  birthday: string | null,
  active: boolean,
  benefitPlanId: number,
];

/** The condition of the beneficiary list and its export (`TRUE` without a search). */
function beneficiaryCondition(q: string | undefined): [string, unknown[]] {
  if (!q) return ['TRUE', []];
  const conditions = ['b.name LIKE ?', 'b.code = ?'];
  const params: unknown[] = [`%${escapeLike(q)}%`, q.toUpperCase()];
  const digits = normalizeCpf(q);
  if (/^\d{3,11}$/.test(digits)) {
    conditions.push('b.cpf LIKE ?');
    params.push(`${digits}%`);
  }
  return [`(${conditions.join(' OR ')})`, params];
}

/**
 * The beneficiaries and benefit plans tables: every write to them (the control panel's, the bulk import's) and
 * the control panel's reads. Unique-index collisions leave here as domain errors or `CodeTakenError`.
 * `in(manager)` hands out a copy bound to one transaction, so that a change and its audit entry commit together.
 */
@Injectable()
export class BeneficiariesRepository {
  /** Where the queries run: the pool, or the transaction of a bound copy. */
  private db: EntityManager;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.db = dataSource.manager;
  }

  /** A copy of this repository whose queries run in the transaction of `manager` (see Transactions.run). */
  in(manager: EntityManager): BeneficiariesRepository {
    const bound = new BeneficiariesRepository(this.dataSource);
    bound.db = manager;
    return bound;
  }

  // Benefit plans

  async insertBenefitPlan(values: NewBenefitPlan): Promise<BenefitPlanEntity> {
    const benefitPlans = this.db.getRepository(BenefitPlanEntity);
    return this.inserting(BenefitPlanEntity, values.code, () =>
      benefitPlans.save(benefitPlans.create(values)),
    );
  }

  benefitPlans(): Promise<BenefitPlanEntity[]> {
    return this.db.getRepository(BenefitPlanEntity).find({ order: { code: 'ASC' } });
  }

  findBenefitPlan(code: string): Promise<BenefitPlanEntity | null> {
    return this.db.getRepository(BenefitPlanEntity).findOne({ where: { code } });
  }

  async updateBenefitPlan(id: number, changes: BenefitPlanChanges): Promise<BenefitPlanEntity> {
    const benefitPlans = this.db.getRepository(BenefitPlanEntity);
    if (Object.keys(changes).length > 0) await benefitPlans.update(id, changes);
    return benefitPlans.findOneOrFail({ where: { id } });
  }

  // Beneficiaries

  async insertBeneficiary(values: NewBeneficiary): Promise<BeneficiaryEntity> {
    const beneficiaries = this.db.getRepository(BeneficiaryEntity);
    return this.inserting(
      BeneficiaryEntity,
      values.code,
      () => beneficiaries.save(beneficiaries.create(values)),
      { cpf: 'controlPanel.cpfTaken' },
    );
  }

  async findBeneficiary(cpf: string): Promise<BeneficiaryWithPlan | null> {
    const beneficiary = await this.db.getRepository(BeneficiaryEntity).findOne({
      where: { cpf },
      relations: { benefitPlan: true },
    });
    if (!beneficiary) return null;
    return Object.assign(beneficiary, { benefitPlanCode: beneficiary.benefitPlan?.code ?? null });
  }

  async findBeneficiaryByCode(code: string): Promise<BeneficiaryWithPlan | null> {
    const beneficiary = await this.db.getRepository(BeneficiaryEntity).findOne({
      where: { code },
      relations: { benefitPlan: true },
    });
    if (!beneficiary) return null;
    return Object.assign(beneficiary, { benefitPlanCode: beneficiary.benefitPlan?.code ?? null });
  }

  /** The id of the beneficiary with this CPF or this code. */
  async findBeneficiaryId(by: { cpf: string } | { code: string }): Promise<number | undefined> {
    const [column, value] = 'cpf' in by ? ['cpf', by.cpf] : ['code', by.code];
    const rows: { id: string }[] = await this.db.query(`SELECT id FROM beneficiaries WHERE ${column} = ?`, [
      value,
    ]);
    return rows[0] ? Number(rows[0].id) : undefined;
  }

  async updateBeneficiary(id: number, changes: BeneficiaryChanges): Promise<void> {
    if (Object.keys(changes).length > 0) await this.db.getRepository(BeneficiaryEntity).update(id, changes);
  }

  // Bulk import: plain SQL, one statement per chunk

  /** Locking read: the rows as committed now, held until the import commits. */
  async storedBeneficiaries(manager: EntityManager, cpfs: string[]): Promise<StoredBeneficiaryRow[]> {
    if (cpfs.length === 0) return [];
    return manager.query(
      `SELECT cpf, code, email, phone, DATE_FORMAT(birthday, '%Y-%m-%d') AS birthday, active
       FROM beneficiaries WHERE cpf IN (?) FOR UPDATE`,
      [cpfs],
    );
  }

  /**
   * code → CPF of the beneficiaries that hold any of these codes. A locking read: it sees what was committed
   * last and keeps anyone else from taking a free code until the import commits, so the upsert can never
   * land on another beneficiary's row through the code's unique index.
   */
  async codeOwners(manager: EntityManager, codes: string[]): Promise<Map<string, string>> {
    if (codes.length === 0) return new Map();
    const rows: { cpf: string; code: string }[] = await manager.query(
      'SELECT cpf, code FROM beneficiaries WHERE code IN (?) FOR UPDATE',
      [codes],
    );
    return new Map(rows.map((row) => [row.code, row.cpf]));
  }

  /** One multi-row upsert by CPF; every column is written from the merged row. */
  async upsertBeneficiaries(manager: EntityManager, rows: BeneficiaryTuple[]): Promise<void> {
    await manager.query(
      `INSERT INTO beneficiaries (cpf, code, name, email, phone, birthday, active, benefit_plan_id) VALUES ?
       ON DUPLICATE KEY UPDATE code = VALUES(code), name = VALUES(name), email = VALUES(email), phone = VALUES(phone),
         birthday = VALUES(birthday), active = VALUES(active), benefit_plan_id = VALUES(benefit_plan_id)`,
      [rows],
    );
  }

  // Lists for the console

  /**
   * Beneficiaries by name. `q` matches the start of a CPF (written with any punctuation), a whole code, or
   * part of a name.
   */
  async listBeneficiaries(q: string | undefined, offset: number, limit: number) {
    const [condition, params] = beneficiaryCondition(q);
    const rows: BeneficiaryListRow[] = await this.db.query(
      `SELECT b.cpf, b.code, b.member_number AS memberNumber, b.name, b.email, b.active, bp.code AS benefitPlanCode
       FROM beneficiaries b LEFT JOIN benefit_plans bp ON bp.id = b.benefit_plan_id WHERE ${condition}
       ORDER BY b.name, b.id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT COUNT(*) AS total FROM beneficiaries b WHERE ${condition}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** The beneficiaries `listBeneficiaries` finds, in the order they were created, after the one with `afterId`. */
  exportBeneficiaries(
    q: string | undefined,
    afterId: number,
    limit: number,
  ): Promise<(BeneficiaryListRow & { id: number })[]> {
    const [condition, params] = beneficiaryCondition(q);
    return this.db.query(
      `SELECT b.id, b.cpf, b.code, b.member_number AS memberNumber, b.name, b.email, b.active,
              bp.code AS benefitPlanCode
       FROM beneficiaries b LEFT JOIN benefit_plans bp ON bp.id = b.benefit_plan_id
       WHERE ${condition} AND b.id > ? ORDER BY b.id LIMIT ?`,
      [...params, afterId, limit],
    );
  }

  /** An insert whose unique-index collisions leave as `CodeTakenError` or `invalid_parameter`. */
  private inserting<E extends ObjectLiteral, T>(
    entity: EntityTarget<E>,
    code: string,
    insert: () => Promise<T>,
    messages: Record<string, MessageKey> = {},
  ): Promise<T> {
    return insertUnique(this.db, entity, code, insert, messages);
  }
}
