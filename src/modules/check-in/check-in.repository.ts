import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { BeneficiaryFacts, GymFacts, GymPlan } from './eligibility';
import { IdentifierType } from './track-usage-request';

/** Something that runs SQL: the data source, or a transaction's manager. */
type Executor = Pick<DataSource | EntityManager, 'query'>;

export type BeneficiaryKey = { type: IdentifierType; identifier: string } | { id: number };

export interface VisitWindow {
  monthStart: Date;
  recentSince: Date;
}

export interface NewVisit {
  beneficiaryId: number;
  placeId: string;
  planId: number | null;
  createdAt: Date;
}

export interface IdempotencyRecord {
  requestHash: string;
  statusCode: number;
  errorLabel: string | null;
  errorDetail: string | null;
  createdAt: Date;
}

/** The key was already taken by a request that committed first. */
export class IdempotencyKeyTaken extends Error {}

function isDuplicateEntry(error: unknown): boolean {
  return (
    error instanceof QueryFailedError && (error.driverError as { code?: string })?.code === 'ER_DUP_ENTRY'
  );
}

export function isDeadlock(error: unknown): boolean {
  const code = error instanceof QueryFailedError ? (error.driverError as { code?: string })?.code : undefined;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}

function where(key: BeneficiaryKey): [string, string | number] {
  if ('id' in key) return ['b.id = ?', key.id];
  return [key.type === 'cpf' ? 'b.cpf = ?' : 'b.code = ?', key.identifier];
}

interface FactsRow {
  id: number;
  code: string;
  active: number;
  benefitPlanId: number | null;
  benefitPlanActive: number | null;
  benefitPlanTier: number | null;
  monthlyVisitLimit: number | null;
  visitsThisMonth: string | number;
  recentVisitPlaceId: string | null;
  recentVisitAt: Date | null;
}

/**
 * The check-in hot path in lean SQL: one query for the gym and its plans, one for the beneficiary with its
 * benefit plan and the visits that matter (both served by the (beneficiary_id, created_at) index).
 */
@Injectable()
export class CheckInRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findGym(placeId: string): Promise<GymFacts | undefined> {
    const rows: {
      active: number;
      code: string;
      planId: number | null;
      planCode: string | null;
      planTier: number | null;
    }[] = await this.dataSource.query(
      `SELECT p.active, p.code, pl.id AS planId, pl.code AS planCode, pl.tier AS planTier
         FROM places p LEFT JOIN plans pl ON pl.place_id = p.id AND pl.deleted_at IS NULL
         WHERE p.id = ? ORDER BY pl.id`,
      [placeId],
    );
    if (rows.length === 0) return undefined;
    const plans: GymPlan[] = rows
      .filter((row) => row.planId !== null)
      .map((row) => ({ id: Number(row.planId), code: String(row.planCode), tier: Number(row.planTier) }));
    return { placeId, placeCode: rows[0].code, active: Boolean(rows[0].active), plans };
  }

  async findBeneficiaryFacts(
    executor: Executor,
    key: BeneficiaryKey,
    window: VisitWindow,
  ): Promise<BeneficiaryFacts | undefined> {
    const [condition, value] = where(key);
    const rows: FactsRow[] = await executor.query(
      `SELECT b.id, b.code, b.active, b.benefit_plan_id AS benefitPlanId, bp.active AS benefitPlanActive,
              bp.tier AS benefitPlanTier, bp.monthly_visit_limit AS monthlyVisitLimit,
              (SELECT COUNT(*) FROM visits v WHERE v.beneficiary_id = b.id AND v.created_at >= ?) AS visitsThisMonth,
              (SELECT v.place_id FROM visits v WHERE v.beneficiary_id = b.id AND v.created_at > ?
                ORDER BY v.created_at DESC LIMIT 1) AS recentVisitPlaceId,
              (SELECT MAX(v.created_at) FROM visits v WHERE v.beneficiary_id = b.id AND v.created_at > ?) AS recentVisitAt
       FROM beneficiaries b LEFT JOIN benefit_plans bp ON bp.id = b.benefit_plan_id
       WHERE ${condition}`,
      [window.monthStart, window.recentSince, window.recentSince, value],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: Number(row.id),
      code: row.code,
      active: Boolean(row.active),
      benefitPlanId: row.benefitPlanId === null ? null : Number(row.benefitPlanId),
      benefitPlanActive: row.benefitPlanActive === null ? null : Boolean(row.benefitPlanActive),
      benefitPlanTier: row.benefitPlanTier === null ? null : Number(row.benefitPlanTier),
      monthlyVisitLimit: row.monthlyVisitLimit === null ? null : Number(row.monthlyVisitLimit),
      visitsThisMonth: Number(row.visitsThisMonth),
      recentVisitPlaceId: row.recentVisitPlaceId,
      recentVisitAt: row.recentVisitAt,
    };
  }

  /** Locks the beneficiary's row until the transaction ends; concurrent registers for it queue here. */
  async lockBeneficiary(manager: EntityManager, key: BeneficiaryKey): Promise<number | undefined> {
    const [condition, value] = where(key);
    const rows: { id: number }[] = await manager.query(
      `SELECT b.id FROM beneficiaries b WHERE ${condition} FOR UPDATE`,
      [value],
    );
    return rows[0] ? Number(rows[0].id) : undefined;
  }

  async insertVisit(manager: EntityManager, visit: NewVisit): Promise<string> {
    const result: { insertId: number | string } = await manager.query(
      'INSERT INTO visits (beneficiary_id, place_id, plan_id, created_at) VALUES (?, ?, ?, ?)',
      [visit.beneficiaryId, visit.placeId, visit.planId, visit.createdAt],
    );
    return String(result.insertId);
  }

  async findIdempotencyRecord(placeId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const rows: IdempotencyRecord[] = await this.dataSource.query(
      `SELECT request_hash AS requestHash, status_code AS statusCode, error_label AS errorLabel,
              error_detail AS errorDetail, created_at AS createdAt
       FROM idempotency_records WHERE place_id = ? AND idempotency_key = ?`,
      [placeId, key],
    );
    return rows[0];
  }

  async deleteIdempotencyRecord(placeId: string, key: string): Promise<void> {
    await this.dataSource.query(
      'DELETE FROM idempotency_records WHERE place_id = ? AND idempotency_key = ?',
      [placeId, key],
    );
  }

  /**
   * Claims the key inside the register's transaction. A concurrent request with the same key waits on the
   * unique index until the first commits, then gets IdempotencyKeyTaken and replays the first outcome.
   */
  async claimIdempotencyKey(
    executor: Executor,
    placeId: string,
    key: string,
    record: Omit<IdempotencyRecord, 'createdAt'>,
    createdAt: Date,
  ): Promise<void> {
    try {
      await executor.query(
        `INSERT INTO idempotency_records (place_id, idempotency_key, request_hash, status_code, error_label, error_detail, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          placeId,
          key,
          record.requestHash,
          record.statusCode,
          record.errorLabel,
          record.errorDetail,
          createdAt,
        ],
      );
    } catch (error) {
      if (isDuplicateEntry(error)) throw new IdempotencyKeyTaken();
      throw error;
    }
  }
}
