import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { runStatement } from '../../database/prepared-statement';
import {
  BatchTransaction,
  builtOnce,
  prepared,
  SessionVariable,
  Statement,
  WriteResult,
} from '../../database/statement-batch';
import type { SubscribedFacts, WellhubSubscriber } from '../webhooks/webhooks.repository';
import { BeneficiaryFacts, GymFacts, GymPlan } from './eligibility';
import { beneficiaryColumn, BeneficiaryIdentifierType } from './track-usage-request';

/**
 * A beneficiary by CPF or code, or by id: a number, or a SessionVariable that a statement before sets (a
 * confirmation's look-up of its check-in, in the same round trip).
 */
export type BeneficiaryKey =
  { type: BeneficiaryIdentifierType; identifier: string } | { id: number | SessionVariable };

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

/** The facts read's and the lock's texts, one per beneficiary condition (and kind of subscriber read): see builtOnce. */
const FACTS_TEXTS = new Map<string, string>();
const LOCK_TEXTS = new Map<string, string>();

function beneficiaryCondition(key: BeneficiaryKey | null): [string, (string | number | SessionVariable)[]] {
  if (key === null) return ['FALSE', []];
  if ('id' in key) return ['b.id = ?', [key.id]];
  return [`b.${beneficiaryColumn(key.type)} = ?`, [key.identifier]];
}

interface FactsRow {
  placeId: string;
  placeCode: string;
  placeActive: number;
  keyVersion: number;
  plans: string | GymPlan[] | null;
  checkInSubscribed: number;
  id: number | null;
  code: string | null;
  active: number | null;
  benefitPlanId: number | null;
  benefitPlanActive: number | null;
  benefitPlanTier: number | null;
  monthlyVisitLimit: number | null;
  /**
   * The beneficiary's visits that matter, read in one pass of (beneficiary_id, created_at): how many this month, a
   * space, and the latest in the recent window (its time, UTC to the millisecond, a space, its place) or nothing.
   */
  visits: string | null;
  placeName?: string;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  cpf?: string | null;
  subscriptionId?: string | null;
  url?: string | null;
  memberNumber?: string | null;
  gymId?: number | string;
  wellhubSubscriptionId?: string | null;
  wellhubUrl?: string | null;
  wellhubAdditionalData?: number | null;
  planNames?: string | Record<string, string> | null;
}

/** Everything one check-in evaluation reads, as of one moment. */
export interface CheckInFacts {
  gym: GymFacts;
  /** The version of the place's key now; a different one than the request's key was rotated away. */
  keyVersion: number;
  /** Whether the place has an active CHECKIN webhook subscription, so the outbox is written only then. */
  checkInSubscribed: boolean;
  beneficiary: BeneficiaryFacts | undefined;
  /**
   * Read only when asked for (a visit or member check-in about to be written): what its webhook event needs,
   * present when the place has an active CHECKIN subscription and the beneficiary exists.
   */
  subscriber?: SubscribedFacts;
  /** Read with `subscriber`: present when the place has an active Wellhub-format subscription. */
  wellhub?: WellhubSubscriber;
}

/**
 * What a check-in about to write its events reads with the facts: nothing (`none`), the CHECKIN subscriber's
 * facts (`checkIn`: a visit, a confirmation), or those and the Wellhub-format subscriber's (`checkInAndWellhub`:
 * the creation of a member check-in, the one event that goes to both). The Wellhub part is a join and a
 * subquery more, which MariaDB plans at every execution even when the gym has no such subscription (about a
 * sixth of the facts read's server CPU, docs/performance.md): only the reads that use it carry it.
 */
export type SubscriberRead = 'none' | 'checkIn' | 'checkInAndWellhub';

/**
 * The outbox's columns, read in the same statement when the caller is about to write an event. The CHECKIN
 * subscription's id and URL are the place's summary columns (PlaceSummaryRepository), not a join: MariaDB plans
 * every table a statement names at each execution, and the join cost 20 to 40 µs of its CPU per register. Only
 * while `check_in_webhook` says a subscription listens, as the join did: a build before these columns (in a
 * rolling upgrade) rewrites the flag, not them.
 */
const SUBSCRIBER_COLUMNS = `, p.name AS placeName, b.name, b.email, b.phone, b.cpf,
  IF(p.check_in_webhook = 1, p.check_in_subscription_id, NULL) AS subscriptionId,
  IF(p.check_in_webhook = 1, p.check_in_webhook_url, NULL) AS url`;
const WELLHUB_COLUMNS = `, p.gym_id AS gymId, ws.id AS wellhubSubscriptionId, ws.url AS wellhubUrl,
  ws.additional_data AS wellhubAdditionalData,
  IF(ws.id IS NULL, NULL, (SELECT JSON_OBJECTAGG(pl.id, pl.name) FROM plans pl WHERE pl.place_id = p.id)) AS planNames`;
const WELLHUB_JOIN = `LEFT JOIN webhook_subscriptions ws
         ON p.wellhub_webhook = 1 AND ws.place_id = p.id AND ws.type = 'WELLHUB_CHECKIN' AND ws.active = 1`;

const SUBSCRIBER_SQL: Record<SubscriberRead, { columns: string; joins: string }> = {
  none: { columns: '', joins: '' },
  checkIn: { columns: SUBSCRIBER_COLUMNS, joins: '' },
  checkInAndWellhub: { columns: `${SUBSCRIBER_COLUMNS}${WELLHUB_COLUMNS}`, joins: WELLHUB_JOIN },
};

function subscriberOf(row: FactsRow): SubscribedFacts | undefined {
  if (!row.subscriptionId || !row.url || row.id === null) return undefined;
  return {
    placeName: String(row.placeName),
    placeCode: row.placeCode,
    name: String(row.name),
    email: row.email ?? null,
    phone: row.phone ?? null,
    cpf: String(row.cpf),
    code: String(row.code),
    subscriptionId: row.subscriptionId,
    url: row.url,
  };
}

function wellhubSubscriberOf(row: FactsRow): WellhubSubscriber | undefined {
  if (!row.wellhubSubscriptionId || !row.wellhubUrl || row.id === null) return undefined;
  // MariaDB hands JSON over as text, MySQL as a parsed value.
  const names = (typeof row.planNames === 'string' ? JSON.parse(row.planNames) : row.planNames) ?? {};
  return {
    subscriptionId: row.wellhubSubscriptionId,
    url: row.wellhubUrl,
    additionalData: Boolean(Number(row.wellhubAdditionalData)),
    gymId: Number(row.gymId),
    placeName: String(row.placeName),
    memberNumber: String(row.memberNumber),
    name: String(row.name),
    email: row.email ?? null,
    phone: row.phone ?? null,
    planNames: new Map(
      Object.entries(names as Record<string, string>).map(([id, name]) => [Number(id), name]),
    ),
  };
}

function earliest(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

/**
 * FactsRow.visits, read (`3 2026-11-26 10:02:11.123 <place id>`): the month's count, then the latest visit of the
 * recent window as one value. A DATETIME(3) as text sorts as its time does, so one MAX finds both the time and
 * the place; and one pass over the beneficiary's visits since the earlier of the month's start and the window's
 * gives both figures (one subquery, not two: MariaDB plans each subquery a statement names at every execution).
 */
function visitsOf(value: string | null): {
  visitsThisMonth: number;
  recentVisitAt: Date | null;
  recentVisitPlaceId: string | null;
} {
  const text = value ?? '0 ';
  const space = text.indexOf(' ');
  const visitsThisMonth = Number(text.slice(0, space));
  const recent = text.slice(space + 1);
  if (recent === '') return { visitsThisMonth, recentVisitAt: null, recentVisitPlaceId: null };
  const at = recent.slice(0, 23);
  return {
    visitsThisMonth,
    recentVisitAt: new Date(`${at.replace(' ', 'T')}Z`),
    recentVisitPlaceId: recent.slice(24),
  };
}

function toPlans(value: FactsRow['plans']): GymPlan[] {
  if (value === null) return [];
  // MariaDB hands JSON over as text, MySQL as a parsed value.
  const plans = (typeof value === 'string' ? JSON.parse(value) : value) as GymPlan[];
  return plans
    .map((plan) => ({ id: Number(plan.id), code: String(plan.code), tier: Number(plan.tier) }))
    .sort((a, b) => a.id - b.id);
}

function toFacts(row: FactsRow | undefined, subscriber: SubscriberRead): CheckInFacts | undefined {
  if (!row) return undefined;
  return {
    gym: {
      placeId: row.placeId,
      placeCode: row.placeCode,
      active: Boolean(Number(row.placeActive)),
      plans: toPlans(row.plans),
    },
    keyVersion: Number(row.keyVersion),
    checkInSubscribed: Boolean(Number(row.checkInSubscribed)),
    subscriber: subscriber === 'none' ? undefined : subscriberOf(row),
    wellhub: subscriber === 'checkInAndWellhub' ? wellhubSubscriberOf(row) : undefined,
    beneficiary:
      row.id === null
        ? undefined
        : {
            id: Number(row.id),
            code: String(row.code),
            memberNumber: String(row.memberNumber),
            active: Boolean(Number(row.active)),
            benefitPlanId: row.benefitPlanId === null ? null : Number(row.benefitPlanId),
            benefitPlanActive: row.benefitPlanActive === null ? null : Boolean(Number(row.benefitPlanActive)),
            benefitPlanTier: row.benefitPlanTier === null ? null : Number(row.benefitPlanTier),
            monthlyVisitLimit: row.monthlyVisitLimit === null ? null : Number(row.monthlyVisitLimit),
            ...visitsOf(row.visits),
          },
  };
}

/**
 * The check-in hot path in lean SQL: one query reads the gym as it is now (state, key version, and from its
 * summary columns its active plans and subscription, see PlaceSummaryRepository) and the beneficiary with its
 * benefit plan and the visits that matter (served by the (beneficiary_id, created_at) index). Nothing is
 * cached in the process, so a change made anywhere counts at once.
 * The visit queries have no upper time bound on purpose: a visit stamped by an instance whose clock runs a
 * little ahead must still count. Then what an admission writes, in the caller's transaction: the beneficiary's
 * lock and version, and the visit.
 */
@Injectable()
export class EligibilityRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Undefined when the place itself is gone. `beneficiary` null looks no beneficiary up. `placeId` may be a
   * SessionVariable (see BeneficiaryKey).
   */
  factsStatement(
    placeId: string | SessionVariable,
    beneficiary: BeneficiaryKey | null,
    window: VisitWindow,
    subscriber: SubscriberRead = 'none',
  ): Statement<CheckInFacts | undefined> {
    const [condition, values] = beneficiaryCondition(beneficiary);
    return prepared(
      builtOnce(FACTS_TEXTS, `${subscriber} ${condition}`, () => {
        const { columns, joins } = SUBSCRIBER_SQL[subscriber];
        return `SELECT p.id AS placeId, p.code AS placeCode, p.active AS placeActive, p.key_version AS keyVersion,
              p.check_in_plans AS plans, p.check_in_webhook AS checkInSubscribed,
              b.id, b.code, b.member_number AS memberNumber, b.active, b.benefit_plan_id AS benefitPlanId, bp.active AS benefitPlanActive,
              bp.tier AS benefitPlanTier, bp.monthly_visit_limit AS monthlyVisitLimit,
              (SELECT CONCAT(COUNT(IF(v.created_at >= ?, 1, NULL)), ' ',
                             IFNULL(MAX(IF(v.created_at > ?, CONCAT(v.created_at, ' ', v.place_id), NULL)), ''))
                 FROM visits v WHERE v.beneficiary_id = b.id AND v.created_at >= ?) AS visits
              ${columns}
       FROM places p
       LEFT JOIN beneficiaries b ON ${condition}
       LEFT JOIN benefit_plans bp ON bp.id = b.benefit_plan_id
       ${joins}
       WHERE p.id = ?`;
      }),
      [
        window.monthStart,
        window.recentSince,
        earliest(window.monthStart, window.recentSince),
        ...values,
        placeId,
      ],
      (result) => toFacts((result as FactsRow[])[0], subscriber),
    );
  }

  /**
   * The beneficiary's id, its row locked until the transaction ends (concurrent registers for it queue here);
   * undefined when there is none.
   */
  lockStatement(key: BeneficiaryKey): Statement<number | undefined> {
    const [condition, values] = beneficiaryCondition(key);
    const sql = builtOnce(
      LOCK_TEXTS,
      condition,
      () => `SELECT b.id FROM beneficiaries b WHERE ${condition} FOR UPDATE`,
    );
    return prepared(sql, values, (result) => {
      const rows = result as { id: number | string }[];
      return rows[0] ? Number(rows[0].id) : undefined;
    });
  }

  /**
   * The write that every transaction recording a visit, or changing a member check-in, makes to the
   * beneficiary's row (see BeneficiaryEntity.checkInVersion): on a Galera cluster two such transactions through
   * two nodes then conflict, and the later one runs again and reads the first one's outcome. `updated_at` is
   * kept: nothing about the beneficiary changed. Sent only on a cluster (see Statement.clusterOnly).
   */
  touchStatement(beneficiaryId: number): Statement {
    return {
      ...prepared(
        'UPDATE beneficiaries SET check_in_version = check_in_version + 1, updated_at = updated_at WHERE id = ?',
        [beneficiaryId],
      ),
      // On one server the beneficiary's lock, taken first, already orders them.
      clusterOnly: true,
    };
  }

  /** Runs `statement` in the transaction `tx`, or on its own as a prepared statement of the pool. */
  run<T>(statement: Statement<T>, tx?: BatchTransaction): Promise<T> {
    return runStatement(tx ?? this.dataSource, statement);
  }

  /** The visit; its id is the connection's LAST_INSERT_ID() for the statements after it. */
  insertVisitStatement(visit: NewVisit): Statement<string> {
    return prepared(
      'INSERT INTO visits (beneficiary_id, place_id, plan_id, created_at) VALUES (?, ?, ?, ?)',
      [visit.beneficiaryId, visit.placeId, visit.planId, visit.createdAt],
      (result) => String((result as WriteResult).insertId),
    );
  }
}
