import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { invalidParameter } from '../../common/errors/domain-error';
import { MessageKey } from '../../common/i18n/messages';
import { BeneficiaryEntity } from '../beneficiaries/entities/beneficiary.entity';
import { BenefitPlanEntity } from '../beneficiaries/entities/benefit-plan.entity';
import { PartnerEntity } from '../partners/entities/partner.entity';
import { PlaceEntity } from '../partners/entities/place.entity';
import { PlanEntity } from '../partners/entities/plan.entity';
import { PlaceSummaryRepository } from '../partners/place-summary.repository';
import { PlaceScope, placeReachCondition } from '../auth/caller';
import { escapeLike } from '../../database/like';
import { duplicateKeyName } from '../../database/mysql-errors';
import { normalizeCpf } from '../../common/domain/cpf';

/** An insert collided on the `code` unique index; the service retries with a fresh code or refuses a given one. */
export class CodeTakenError extends Error {
  constructor(readonly code: string) {
    super(`code ${code} is already taken`);
    this.name = 'CodeTakenError';
  }
}

/** The property whose unique index a duplicate-key error names, or undefined for any other error. */
export function duplicatedProperty(error: unknown, metadata: EntityMetadata): string | undefined {
  const key = duplicateKeyName(error);
  if (key === undefined) return undefined;
  const unique = [...metadata.indices.filter((index) => index.isUnique), ...metadata.uniques].find(
    (index) => index.name === key,
  );
  return unique?.columns[0]?.propertyName ?? 'unknown';
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
  customCode: string | null;
}

export interface PartnerListRow {
  id: number;
  name: string;
  placesCount: string;
  createdAt: Date;
}

export interface PlaceListRow {
  id: string;
  partnerId: number;
  partnerName: string;
  name: string;
  code: string;
  gymId: number;
  active: number;
  webhookSubscribed: number;
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

export interface VisitListRow extends VisitRow {
  placeId: string;
  placeName: string | null;
}

export interface PlaceFilter {
  q?: string;
  partnerId?: number;
  scope: PlaceScope;
}

export interface VisitFilter {
  placeId?: string;
  from?: Date;
  to?: Date;
}

export interface StoredBeneficiaryRow {
  cpf: string;
  code: string;
  email: string | null;
  phone: string | null;
  birthday: string | null;
  active: number;
}

export type NewPartner = Pick<PartnerEntity, 'name' | 'apiKeyHash' | 'apiKeyCiphertext'>;
export type NewPlace = Pick<
  PlaceEntity,
  'id' | 'partnerId' | 'name' | 'code' | 'active' | 'apiKeyHash' | 'apiKeyCiphertext'
>;
export type NewPlan = Pick<PlanEntity, 'placeId' | 'name' | 'code' | 'tier' | 'externalReference'>;
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

const UUID_LENGTH = 36;
const PARTNER_ID = /^\d{1,10}$/;

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

/** The WHERE of the visit list and its export (before the visit `beforeId`, for the export's next batch). */
function visitWhere(filter: VisitFilter, beforeId?: string): [string, unknown[]] {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.placeId !== undefined) {
    conditions.push('v.place_id = ?');
    params.push(filter.placeId);
  }
  if (filter.from) {
    conditions.push('v.created_at >= ?');
    params.push(filter.from);
  }
  if (filter.to) {
    conditions.push('v.created_at < ?');
    params.push(filter.to);
  }
  if (beforeId !== undefined) {
    conditions.push('v.id < ?');
    params.push(beforeId);
  }
  return [conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params];
}

/**
 * The control panel's queries. Unique-index collisions leave here as domain errors or `CodeTakenError`.
 * `in(manager)` hands out a copy bound to one transaction, so that a change and its audit entry commit together.
 */
@Injectable()
export class ControlPanelRepository {
  /** Where the queries run: the pool, or the transaction of a bound copy. */
  private db: EntityManager;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly placeSummary: PlaceSummaryRepository,
  ) {
    this.db = dataSource.manager;
  }

  /** A copy of this repository whose queries run in the transaction of `manager` (see Transactions.run). */
  in(manager: EntityManager): ControlPanelRepository {
    const bound = new ControlPanelRepository(this.dataSource, this.placeSummary);
    bound.db = manager;
    return bound;
  }

  // Partners

  insertPartner(values: NewPartner): Promise<PartnerEntity> {
    return this.db.getRepository(PartnerEntity).save(values);
  }

  /** `id` as it came in the path: anything that is not a partner id finds nothing. */
  findPartner(id: string | number): Promise<PartnerEntity | null> {
    if (!PARTNER_ID.test(String(id))) return Promise.resolve(null);
    return this.db.getRepository(PartnerEntity).findOne({ where: { id: Number(id) } });
  }

  placesOfPartner(partnerId: number): Promise<PlaceEntity[]> {
    return this.db
      .getRepository(PlaceEntity)
      .find({ where: { partnerId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async renamePartner(id: number, name: string): Promise<void> {
    await this.db.getRepository(PartnerEntity).update(id, { name });
  }

  /** New key material; the bumped version revokes the bearer tokens issued with the old key. */
  async rotatePartnerKey(id: number, hash: string, ciphertext: string): Promise<void> {
    await this.db.getRepository(PartnerEntity).update(id, {
      apiKeyHash: hash,
      apiKeyCiphertext: ciphertext,
      keyVersion: () => 'key_version + 1',
    });
  }

  // Places

  async insertPlace(values: NewPlace): Promise<PlaceEntity> {
    return this.inserting(PlaceEntity, values.code, () =>
      this.db.getRepository(PlaceEntity).save(this.db.getRepository(PlaceEntity).create(values)),
    );
  }

  findPlace(id: string): Promise<PlaceEntity | null> {
    if (id.length > UUID_LENGTH) return Promise.resolve(null);
    return this.db.getRepository(PlaceEntity).findOne({ where: { id } });
  }

  async updatePlace(id: string, changes: Partial<Pick<PlaceEntity, 'name' | 'active'>>): Promise<void> {
    if (Object.keys(changes).length > 0) await this.db.getRepository(PlaceEntity).update(id, changes);
  }

  async rotatePlaceKey(id: string, hash: string, ciphertext: string): Promise<void> {
    await this.db.getRepository(PlaceEntity).update(id, {
      apiKeyHash: hash,
      apiKeyCiphertext: ciphertext,
      keyVersion: () => 'key_version + 1',
    });
  }

  // Plans of a place

  /** Inserts the plan and refreshes its place's summary in one transaction. */
  async insertPlan(values: NewPlan): Promise<PlanEntity> {
    return this.inserting(PlanEntity, values.code, () =>
      this.db.transaction((manager) =>
        this.placeSummary.change(values.placeId, manager, () => {
          const plans = manager.getRepository(PlanEntity);
          return plans.save(plans.create(values));
        }),
      ),
    );
  }

  /** Plans not deleted, oldest first. */
  plansOfPlace(placeId: string): Promise<PlanEntity[]> {
    return this.db.getRepository(PlanEntity).find({ where: { placeId }, order: { id: 'ASC' } });
  }

  findPlanOfPlace(placeId: string, code: string): Promise<PlanEntity | null> {
    return this.db.getRepository(PlanEntity).findOne({ where: { placeId, code } });
  }

  /** Sets `deletedAt`, refreshes the place's summary in the same transaction, answers the plan as stored. */
  async softDeletePlan(plan: Pick<PlanEntity, 'id' | 'placeId'>): Promise<PlanEntity> {
    return this.db.transaction(async (manager) => {
      const plans = manager.getRepository(PlanEntity);
      await this.placeSummary.change(plan.placeId, manager, () => plans.softDelete(plan.id));
      return plans.findOneOrFail({ where: { id: plan.id }, withDeleted: true });
    });
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

  /** Visits of a beneficiary since `since`, and the time of the latest one (through its own index). */
  async beneficiaryVisitCount(
    beneficiaryId: number,
    since: Date,
  ): Promise<{ visits: number; lastVisitAt: Date | null }> {
    const [row]: { visits: string; last: Date | null }[] = await this.db.query(
      `SELECT (SELECT COUNT(*) FROM visits WHERE beneficiary_id = ? AND created_at >= ?) AS visits,
              (SELECT MAX(created_at) FROM visits WHERE beneficiary_id = ?) AS last`,
      [beneficiaryId, since, beneficiaryId],
    );
    return { visits: Number(row.visits), lastVisitAt: row.last };
  }

  /** A beneficiary's visits, newest first, with their place's name. */
  async visitsOfBeneficiary(beneficiaryId: number, offset: number, limit: number) {
    const rows: {
      id: string;
      placeId: string;
      placeName: string | null;
      planCode: string | null;
      createdAt: Date;
      customCode: string | null;
    }[] = await this.db.query(
      `SELECT v.id, v.place_id AS placeId, p.name AS placeName, pl.code AS planCode, v.created_at AS createdAt,
              mc.custom_code AS customCode
         FROM visits v LEFT JOIN places p ON p.id = v.place_id LEFT JOIN plans pl ON pl.id = v.plan_id
         LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
         WHERE v.beneficiary_id = ? ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [beneficiaryId, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      'SELECT COUNT(*) AS total FROM visits WHERE beneficiary_id = ?',
      [beneficiaryId],
    );
    return { rows, total: Number(total) };
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

  /** Partners by name, with how many places each has; `q` matches part of the name. */
  async listPartners(q: string | undefined, offset: number, limit: number) {
    const where = q ? 'WHERE pt.name LIKE ?' : '';
    const params = q ? [`%${escapeLike(q)}%`] : [];
    const rows: PartnerListRow[] = await this.db.query(
      `SELECT pt.id, pt.name, pt.created_at AS createdAt,
              (SELECT COUNT(*) FROM places p WHERE p.partner_id = pt.id) AS placesCount
       FROM partners pt ${where} ORDER BY pt.name, pt.id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT COUNT(*) AS total FROM partners pt ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** Places by name within the caller's scope; `q` matches part of the name or of the code. */
  async listPlaces(filter: PlaceFilter, offset: number, limit: number) {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.q) {
      conditions.push('(p.name LIKE ? OR p.code LIKE ?)');
      params.push(`%${escapeLike(filter.q)}%`, `%${escapeLike(filter.q)}%`);
    }
    if (filter.partnerId !== undefined) {
      conditions.push('p.partner_id = ?');
      params.push(filter.partnerId);
    }
    const [reached, reachedParams] = placeReachCondition({ scope: filter.scope }, 'p.id');
    conditions.push(reached);
    params.push(...reachedParams);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows: PlaceListRow[] = await this.db.query(
      `SELECT p.id, p.partner_id AS partnerId, pt.name AS partnerName, p.name, p.code, p.gym_id AS gymId, p.active,
              p.check_in_webhook AS webhookSubscribed
       FROM places p JOIN partners pt ON pt.id = p.partner_id ${where}
       ORDER BY p.name, p.id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT COUNT(*) AS total FROM places p ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

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

  /** Visits of every place (or one), newest first. */
  async listVisits(filter: VisitFilter, offset: number, limit: number) {
    const [where, params] = visitWhere(filter);
    const rows: VisitListRow[] = await this.db.query(
      `SELECT v.id, v.place_id AS placeId, p.name AS placeName, b.code AS beneficiaryCode, b.cpf,
              pl.code AS planCode, v.created_at AS createdAt, mc.custom_code AS customCode
       FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id LEFT JOIN places p ON p.id = v.place_id
       LEFT JOIN plans pl ON pl.id = v.plan_id
       LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
       ${where} ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT COUNT(*) AS total FROM visits v ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** The visits `listVisits` finds, newest first by id, before the one with `beforeId` (none: from the newest). */
  exportVisits(filter: VisitFilter, beforeId: string | undefined, limit: number): Promise<VisitListRow[]> {
    const [where, params] = visitWhere(filter, beforeId);
    return this.db.query(
      `SELECT v.id, v.place_id AS placeId, p.name AS placeName, b.code AS beneficiaryCode, b.cpf,
              pl.code AS planCode, v.created_at AS createdAt, mc.custom_code AS customCode
       FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id LEFT JOIN places p ON p.id = v.place_id
       LEFT JOIN plans pl ON pl.id = v.plan_id
       LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
       ${where} ORDER BY v.id DESC LIMIT ?`,
      [...params, limit],
    );
  }

  // Visits (read-only)

  async visitsOfPlace(
    placeId: string,
    from: Date | undefined,
    to: Date | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: VisitRow[]; total: number }> {
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
    const rows: VisitRow[] = await this.db.query(
      `SELECT v.id, b.code AS beneficiaryCode, b.cpf, pl.code AS planCode, v.created_at AS createdAt,
              mc.custom_code AS customCode
       FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id LEFT JOIN plans pl ON pl.id = v.plan_id
       LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
       WHERE ${where} ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT COUNT(*) AS total FROM visits v WHERE ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /**
   * Runs an insert and translates a unique-index collision: on `code` into `CodeTakenError`, on another
   * column into `invalid_parameter` with `messages[column]`.
   */
  private async inserting<E extends ObjectLiteral, T>(
    entity: EntityTarget<E>,
    code: string,
    insert: () => Promise<T>,
    messages: Record<string, MessageKey> = {},
  ): Promise<T> {
    try {
      return await insert();
    } catch (error) {
      const property = duplicatedProperty(error, this.db.connection.getMetadata(entity));
      if (property === undefined) throw error;
      if (property === 'code') throw new CodeTakenError(code);
      throw invalidParameter(messages[property] ?? 'field.taken', { field: property, value: code });
    }
  }
}
