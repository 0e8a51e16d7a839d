import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { duplicateKeyName } from '../../database/mysql-errors';
import { runStatement } from '../../database/prepared-statement';
import { PlaceReach, placeReachCondition } from '../auth/caller';
import { builtOnce, prepared, SessionVariable, Statement } from '../../database/statement-batch';
import { CancelReason, StoredCheckInStatus } from './entities/member-check-in.entity';
import { CheckInStatus } from './member-check-in-status';
import { beneficiaryColumn, BeneficiaryIdentifierType } from '../eligibility/track-usage-request';

/** A check-in's state, as read under its row lock. */
export interface CheckInState {
  id: string;
  beneficiaryId: number;
  placeId: string;
  planId: number | null;
  token: string;
  status: StoredCheckInStatus;
  cancelReason: CancelReason | null;
  startedAt: Date;
  expiresAt: Date;
  validatedAt: Date | null;
  cancelledAt: Date | null;
}

/**
 * What a confirmation takes from the look-up of the check-in it confirms: its ids and its plan's code (the state
 * it judges is read under the check-in's lock).
 */
export interface CheckInToConfirm {
  id: string;
  beneficiaryId: number;
  placeId: string;
  planCode: string | null;
}

/** A check-in's state with its plan's code. */
export interface CheckInStateWithPlan extends CheckInState, CheckInToConfirm {}

/** A check-in with what its answers show of its place, plan and beneficiary. */
export interface CheckInRow extends CheckInStateWithPlan {
  placeName: string;
  placeCode: string;
  beneficiaryCode: string;
  memberNumber: string;
}

export interface NewCheckIn {
  id: string;
  beneficiaryId: number;
  placeId: string;
  planId: number | null;
  token: string;
  confirmationTokenHash: string;
  startedAt: Date;
  expiresAt: Date;
}

/** Another pending check-in of the gym holds this token. */
export class PendingTokenTaken extends Error {}

const STATE_COLUMNS = `c.id, c.beneficiary_id AS beneficiaryId, c.place_id AS placeId, c.plan_id AS planId, c.token,
  c.status, c.cancel_reason AS cancelReason, c.started_at AS startedAt, c.expires_at AS expiresAt,
  c.validated_at AS validatedAt, c.cancelled_at AS cancelledAt`;

/** A CheckInRow's columns, of the check-in `c`, its place `p`, its member `b` and its plan `pl`. */
const ROW_COLUMNS = `${STATE_COLUMNS}, pl.code AS planCode, p.name AS placeName, p.code AS placeCode,
    b.code AS beneficiaryCode, b.member_number AS memberNumber`;

const ROW_FROM = `FROM member_check_ins c
  JOIN places p ON p.id = c.place_id
  JOIN beneficiaries b ON b.id = c.beneficiary_id
  LEFT JOIN plans pl ON pl.id = c.plan_id`;

const ROW_SELECT = `SELECT ${ROW_COLUMNS} ${ROW_FROM}`;

/**
 * The check-in a confirmation's look-up found, as its statements after it take it (see
 * byConfirmationHashStatement).
 */
export const LOOKED_UP = {
  id: new SessionVariable('looked_up_check_in'),
  beneficiaryId: new SessionVariable('looked_up_beneficiary'),
  placeId: new SessionVariable('looked_up_place'),
} as const;

/**
 * Sets LOOKED_UP to NULL. A statement that sets them leaves them as they were when it answers no row (the
 * previous transaction's, on a pooled connection): sent before it, the statements after it then find nothing.
 */
export const FORGET_LOOKED_UP = prepared(
  `SET @${LOOKED_UP.id.name} = NULL, @${LOOKED_UP.beneficiaryId.name} = NULL, @${LOOKED_UP.placeId.name} = NULL`,
  [],
);

/** The columns that set LOOKED_UP from the check-in `c` (NULL when it is NULL-complemented). */
export const LOOKED_UP_COLUMNS = `@${LOOKED_UP.id.name} := c.id AS _id,
  @${LOOKED_UP.beneficiaryId.name} := c.beneficiary_id AS _beneficiaryId,
  @${LOOKED_UP.placeId.name} := c.place_id AS _placeId`;

/** A row of a statement that sets LOOKED_UP: the check-in's columns (all NULL when none was found) and those. */
export type LookedUpRow<T extends CheckInState = CheckInRow> = Omit<T, 'id'> & { id: string | null } & Record<
    '_id' | '_beneficiaryId' | '_placeId',
    unknown
  >;

/** A row of a confirmation's look-up: the LOOKED_UP columns and the plan's code. */
type ToConfirmRow = Record<'_id' | '_beneficiaryId' | '_placeId', unknown> & { planCode: string | null };

/**
 * The check-in a confirmation's look-up found, from the LOOKED_UP columns alone and its plan's code; undefined
 * when none was found.
 */
function lookedUpToConfirm(row: ToConfirmRow | undefined): CheckInToConfirm | undefined {
  if (!row || row._id === null) return undefined;
  return {
    id: String(row._id),
    beneficiaryId: Number(row._beneficiaryId),
    placeId: String(row._placeId),
    planCode: row.planCode,
  };
}

/** The check-in of a statement that sets LOOKED_UP; undefined when none was found. */
export function lookedUp<T extends CheckInState>(row: LookedUpRow<T> | undefined): T | undefined {
  if (!row || row.id === null) return undefined;
  const { _id, _beneficiaryId, _placeId, ...found } = row;
  return toState({ ...found, id: row.id } as unknown as T);
}

/** A check-in with the name of its plan (null at a gym without plans). */
export interface CheckInWithPlanRow extends CheckInRow {
  planName: string | null;
}

/** A check-in as the console lists it: with the member's name. */
export interface ListedCheckInRow extends CheckInRow {
  beneficiaryName: string;
}

const LIST_SELECT = ROW_SELECT.replace(
  'b.code AS beneficiaryCode',
  'b.code AS beneficiaryCode, b.name AS beneficiaryName',
);

/**
 * The member's check-in at a place, with its plan's name, as columns and joins of a statement whose FROM names
 * the place `p` and the member `b` (the Wellhub-compatible validate, AccessControlRepository).
 * pendingAtPlaceJoins finds the member's pending check-in by its unique (pending, beneficiary_id) key, when
 * `condition` (SQL) holds too, every table read as a constant: a pending check-in is the member's latest by commit order (a new one replaces it;
 * two made at the same moment may carry their start times the other way round, and the pending one is still the
 * one that stands). LATEST_AT_PLACE_JOINS finds the latest by `started_at` through a subquery on the
 * (beneficiary, started_at) index, which walks back past the member's newer check-ins elsewhere, for when none
 * is pending. Neither builds a temporary table or sorts.
 */
export const AT_PLACE_COLUMNS = `${STATE_COLUMNS}, pl.code AS planCode, pl.name AS planName,
  b.code AS beneficiaryCode, b.member_number AS memberNumber`;
export function pendingAtPlaceJoins(condition: string): string {
  return `LEFT JOIN member_check_ins c
    ON c.pending = 1 AND c.beneficiary_id = b.id AND c.place_id = p.id AND ${condition}
  LEFT JOIN plans pl ON pl.id = c.plan_id`;
}
export const LATEST_AT_PLACE_JOINS = `LEFT JOIN member_check_ins c ON c.id = (
    SELECT l.id FROM member_check_ins l WHERE l.beneficiary_id = b.id AND l.place_id = p.id
    ORDER BY l.started_at DESC LIMIT 1)
  LEFT JOIN plans pl ON pl.id = c.plan_id`;

/**
 * The failed look-ups counted under `counterId` (an SQL expression) in the window that starts at the next value,
 * as the table `f` of a statement, read by its primary key as a constant: FAILURES is the count, 0 when none,
 * which a later join's condition can use (a subquery there would keep MariaDB from reading that join's table as
 * a constant).
 */
export function failuresJoin(counterId: string): string {
  return `LEFT JOIN token_lookup_failures f ON f.place_id = ${counterId} AND f.window_start = ?`;
}
export const FAILURES = 'COALESCE(f.failures, 0)';

/**
 * What a pending check-in holds in `growth_reserve` (16 bytes) and gives up when it ends: a check-in's end adds
 * at most 17 bytes to its row (a validation: the longer status, `validated_at` and `visit_id`, less `pending`;
 * a cancellation as a replacement: the status, `cancelled_at` and the reason), and the reserve's 16 bytes and its
 * length byte free as many. A row that does not grow is written where it was; one grown on a full page made
 * InnoDB reorganize the page, about a tenth of a confirmation's transaction (callgrind, docs/performance.md).
 */
const GROWTH_RESERVE = "X'00000000000000000000000000000000'";

// The confirmations' statement texts, built once (see builtOnce in statement-batch.ts).

/**
 * The look-up at the confirmation endpoint, without the joins of the place and the member, whose columns a
 * confirmation does not use (its facts read has them): every table a statement names is planned at each
 * execution, and the two joins cost MariaDB about 15 µs of the look-up's 40 (docs/performance.md). A check-in's
 * place and member always exist (places are never deleted, and the member is a foreign key), so the joins never
 * left a check-in out. Nor does it answer the check-in's state, which the check-in's lock reads again: only its
 * ids (the LOOKED_UP columns) and its plan's code, each column one more definition to send and parse.
 */
const BY_CONFIRMATION_HASH = `SELECT ${LOOKED_UP_COLUMNS}, pl.code AS planCode
       FROM member_check_ins c LEFT JOIN plans pl ON pl.id = c.plan_id WHERE c.confirmation_token_hash = ?`;
const PENDING_BY_TOKEN = `SELECT ${LOOKED_UP_COLUMNS}, ${FAILURES} AS failures, ${ROW_COLUMNS}
       FROM places p
       ${failuresJoin('p.id')}
       LEFT JOIN member_check_ins c ON c.pending = 1 AND c.place_id = p.id AND c.token = ? AND ${FAILURES} < ?
       LEFT JOIN beneficiaries b ON b.id = c.beneficiary_id
       LEFT JOIN plans pl ON pl.id = c.plan_id
       WHERE p.id = ?`;
/** PENDING_BY_TOKEN for a confirmation: the failures, and the check-in's ids and plan code, as BY_CONFIRMATION_HASH. */
const PENDING_BY_TOKEN_TO_CONFIRM = `SELECT ${LOOKED_UP_COLUMNS}, ${FAILURES} AS failures, pl.code AS planCode
       FROM places p
       ${failuresJoin('p.id')}
       LEFT JOIN member_check_ins c ON c.pending = 1 AND c.place_id = p.id AND c.token = ? AND ${FAILURES} < ?
       LEFT JOIN plans pl ON pl.id = c.plan_id
       WHERE p.id = ?`;
const LATEST_BY_TOKEN = `${ROW_SELECT} WHERE c.place_id = ? AND c.token = ? ORDER BY c.started_at DESC LIMIT 1`;
const LOCK_CHECK_IN = `SELECT ${STATE_COLUMNS} FROM member_check_ins c WHERE c.id = ? FOR UPDATE`;
/** pendingOfStatement's text by the kind of identifier. */
const PENDING_OF_TEXTS = new Map<string, string>();

/** A check-in row with its numbers as numbers. */
export function toState<T extends CheckInState>(row: T): T {
  return {
    ...row,
    beneficiaryId: Number(row.beneficiaryId),
    planId: row.planId === null ? null : Number(row.planId),
  };
}

/** The SQL condition (and its values) of a status as people read it: a pending check-in past its time is expired. */
function statusCondition(status: CheckInStatus, now: Date): [string, unknown[]] {
  switch (status) {
    case 'pending':
      return ["c.status = 'pending' AND c.expires_at > ?", [now]];
    case 'expired':
      return ["(c.status = 'expired' OR (c.status = 'pending' AND c.expires_at <= ?))", [now]];
    case 'validated':
    case 'cancelled':
      return ['c.status = ?', [status]];
  }
}

/**
 * Member check-ins and the counters of failed token look-ups. The writes run in the caller's transaction; the
 * lock query reads the check-in's own row only, so that no place or plan row is ever locked by it.
 */
@Injectable()
export class MemberCheckInsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<CheckInRow | undefined> {
    const rows: CheckInRow[] = await this.dataSource.query(`${ROW_SELECT} WHERE c.id = ?`, [id]);
    return rows[0] && toState(rows[0]);
  }

  /**
   * The check-in whose confirmation token has this hash, as the first statement of its confirmation's
   * transaction: it sets the LOOKED_UP variables to its id, beneficiary and place (after FORGET_LOOKED_UP,
   * which leaves them NULL when there is none), and the locks and the facts read sent after it in the same
   * round trip take them from there. A plain read: the confirmation's transaction runs at READ COMMITTED, so that
   * its facts, read after the locks, still see what the previous holder of the beneficiary's lock committed.
   */
  byConfirmationHashStatement(hash: string): Statement<CheckInToConfirm | undefined> {
    return prepared(BY_CONFIRMATION_HASH, [hash], (result) =>
      lookedUpToConfirm((result as ToConfirmRow[])[0]),
    );
  }

  /**
   * The gym's check-in with this token (the pending one, else the latest that had it), and in the same
   * statement the gym's failed look-ups in the window that starts at `windowStart`. The first statement
   * (pendingByTokenStatement) reads the pending one; only when none is pending (a repeat, a wrong or stale
   * token: the refusals) a second statement reads the latest one that had it, unless the gym's failures have
   * reached `failureLimit` (the look-up is then refused whatever it finds).
   */
  async findByToken(
    placeId: string,
    token: string,
    windowStart: Date,
    failureLimit: number,
  ): Promise<{ failures: number; found: CheckInRow | undefined }> {
    const { failures, pending } = await runStatement(
      this.dataSource,
      this.pendingByTokenStatement(placeId, token, windowStart, failureLimit),
    );
    if (pending || failures >= failureLimit) return { failures, found: pending };
    return {
      failures,
      found: await runStatement(this.dataSource, this.latestByTokenStatement(placeId, token)),
    };
  }

  /**
   * The gym's pending check-in with this token, and the gym's failed look-ups in the window that starts at
   * `windowStart`; sets LOOKED_UP as byConfirmationHashStatement does (NULL when none is pending), so that it
   * can lead a confirmation's transaction. While the gym's failures have reached `failureLimit` no check-in is
   * joined: the look-up is refused whatever it finds, and the locks sent after it then lock nothing. The gym's
   * row drives the statement (it always exists, so the failures come back even when no check-in has the
   * token). The pending check-in is joined by its unique (pending, place_id,
   * token) key and every table is read as a constant. MariaDB plans every table a statement names at each
   * execution: a single statement that also named the latest's subquery and picked one with COALESCE cost the
   * server about twice as much per look-up that finds a pending check-in (docs/performance.md), hence
   * latestByTokenStatement apart.
   */
  pendingByTokenStatement(
    placeId: string,
    token: string,
    windowStart: Date,
    failureLimit: number,
  ): Statement<{ failures: number; pending: CheckInRow | undefined }> {
    return this.pendingByToken(PENDING_BY_TOKEN, placeId, token, windowStart, failureLimit, (row) =>
      lookedUp(row as LookedUpRow),
    );
  }

  /**
   * pendingByTokenStatement for a confirmation (a `token` register), which takes only the check-in's ids and its
   * plan's code: without the join of the member, and without the columns of the check-in's state (its lock reads
   * them), as byConfirmationHashStatement (docs/performance.md).
   */
  pendingToConfirmByTokenStatement(
    placeId: string,
    token: string,
    windowStart: Date,
    failureLimit: number,
  ): Statement<{ failures: number; pending: CheckInToConfirm | undefined }> {
    return this.pendingByToken(
      PENDING_BY_TOKEN_TO_CONFIRM,
      placeId,
      token,
      windowStart,
      failureLimit,
      (row) => lookedUpToConfirm(row as ToConfirmRow),
    );
  }

  /** A look-up by token (`sql`, values as PENDING_BY_TOKEN's), its pending check-in read from its row by `found`. */
  private pendingByToken<T>(
    sql: string,
    placeId: string,
    token: string,
    windowStart: Date,
    failureLimit: number,
    found: (row: Record<string, unknown>) => T | undefined,
  ): Statement<{ failures: number; pending: T | undefined }> {
    return prepared(sql, [windowStart, token, failureLimit, placeId], (result) => {
      const [row] = result as (Record<string, unknown> & { failures: string | number })[];
      // A key's gym is always there (places are never deleted); if it went, nothing is found, and the facts
      // read that follows refuses the key (see PlaceKeyCache.assertCurrent).
      if (!row) return { failures: 0, pending: undefined };
      const { failures, ...pending } = row;
      return { failures: Number(failures), pending: found(pending) };
    });
  }

  /** The latest of the gym's check-ins that had this token. */
  latestByTokenStatement(placeId: string, token: string): Statement<CheckInRow | undefined> {
    return prepared(LATEST_BY_TOKEN, [placeId, token], (result) => {
      const [row] = result as CheckInRow[];
      return row && toState(row);
    });
  }

  /** Locks the check-in's row until the transaction ends and reads its state as it is now. */
  lockStatement(id: string | SessionVariable): Statement<CheckInState> {
    return prepared(LOCK_CHECK_IN, [id], (result) => {
      const rows = result as CheckInState[];
      if (!rows[0]) throw new Error(`Member check-in ${id} vanished`);
      return toState(rows[0]);
    });
  }

  /**
   * The pending check-in of the beneficiary with this CPF or code. A plain read: the caller holds the
   * beneficiary's lock, which every writer of its check-ins takes first, and a locking read of a missing key
   * would lock the index gap that concurrent creations for other members insert into.
   */
  pendingOfStatement(key: {
    type: BeneficiaryIdentifierType;
    identifier: string;
  }): Statement<CheckInRow | undefined> {
    return prepared(
      builtOnce(
        PENDING_OF_TEXTS,
        key.type,
        () => `${ROW_SELECT} WHERE c.pending = 1 AND b.${beneficiaryColumn(key.type)} = ?`,
      ),
      [key.identifier],
      (result) => {
        const rows = result as CheckInRow[];
        return rows[0] && toState(rows[0]);
      },
    );
  }

  /**
   * The new pending check-in, holding its GROWTH_RESERVE; its commit fails with isPendingTokenTaken when another
   * pending one holds the token.
   */
  insertStatement(checkIn: NewCheckIn): Statement {
    return prepared(
      `INSERT INTO member_check_ins
         (id, beneficiary_id, place_id, plan_id, token, confirmation_token_hash, status, started_at, expires_at,
          growth_reserve)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ${GROWTH_RESERVE})`,
      [
        checkIn.id,
        checkIn.beneficiaryId,
        checkIn.placeId,
        checkIn.planId,
        checkIn.token,
        checkIn.confirmationTokenHash,
        checkIn.startedAt,
        checkIn.expiresAt,
      ],
    );
  }

  /** Whether `error` says another pending check-in of the gym holds the token. */
  isPendingTokenTaken(error: unknown): boolean {
    return duplicateKeyName(error) === 'UQ_member_check_ins_pending_token';
  }

  /**
   * Frees `token` at the gym when the pending check-in that holds it is past its time (it becomes expired), in a
   * statement of its own; answers whether it did.
   */
  async releaseExpiredToken(placeId: string, token: string, now: Date): Promise<boolean> {
    const result: { affectedRows: number } = await this.dataSource.query(
      `UPDATE member_check_ins SET status = 'expired', growth_reserve = NULL
       WHERE pending = 1 AND place_id = ? AND token = ? AND expires_at <= ?`,
      [placeId, token, now],
    );
    return result.affectedRows > 0;
  }

  markExpiredStatement(id: string): Statement {
    return prepared(
      "UPDATE member_check_ins SET status = 'expired', growth_reserve = NULL WHERE id = ? AND status = 'pending'",
      [id],
    );
  }

  /** Validated as of `at`, by the visit inserted just before it in the same round trip (LAST_INSERT_ID()). */
  markValidatedStatement(id: string, at: Date): Statement {
    return prepared(
      `UPDATE member_check_ins SET status = 'validated', validated_at = ?, visit_id = LAST_INSERT_ID(),
         growth_reserve = NULL WHERE id = ?`,
      [at, id],
    );
  }

  markCancelledStatement(id: string, at: Date, reason: CancelReason): Statement {
    return prepared(
      `UPDATE member_check_ins SET status = 'cancelled', cancelled_at = ?, cancel_reason = ?, growth_reserve = NULL
       WHERE id = ?`,
      [at, reason, id],
    );
  }

  /** A page of the place's check-ins, newest first, with the total that match. */
  async listOfPlace(
    placeId: string,
    status: CheckInStatus | undefined,
    now: Date,
    offset: number,
    limit: number,
  ): Promise<{ rows: ListedCheckInRow[]; total: number }> {
    const [condition, values] = status ? statusCondition(status, now) : ['TRUE', []];
    const rows: ListedCheckInRow[] = await this.dataSource.query(
      `${LIST_SELECT} WHERE c.place_id = ? AND ${condition}
       ORDER BY c.started_at DESC, c.id DESC LIMIT ? OFFSET ?`,
      [placeId, ...values, limit, offset],
    );
    const [{ total }]: { total: string | number }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM member_check_ins c WHERE c.place_id = ? AND ${condition}`,
      [placeId, ...values],
    );
    return { rows: rows.map(toState), total: Number(total) };
  }

  /** A beneficiary's check-ins at every place, newest first. */
  async listOfBeneficiary(
    beneficiaryId: number,
    status: CheckInStatus | undefined,
    now: Date,
    offset: number,
    limit: number,
  ): Promise<{ rows: ListedCheckInRow[]; total: number }> {
    const [condition, values] = status ? statusCondition(status, now) : ['TRUE', []];
    const rows: ListedCheckInRow[] = await this.dataSource.query(
      `${LIST_SELECT} WHERE c.beneficiary_id = ? AND ${condition}
       ORDER BY c.started_at DESC, c.id DESC LIMIT ? OFFSET ?`,
      [beneficiaryId, ...values, limit, offset],
    );
    const [{ total }]: { total: string | number }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM member_check_ins c WHERE c.beneficiary_id = ? AND ${condition}`,
      [beneficiaryId, ...values],
    );
    return { rows: rows.map(toState), total: Number(total) };
  }

  /**
   * Of the places reached: check-ins pending now, and those that expired, were confirmed or were cancelled since
   * `since` (among those started since `startedSince`, through each place's own index).
   */
  async countsSince(
    reach: PlaceReach,
    now: Date,
    since: Date,
    startedSince: Date,
  ): Promise<{ pending: number; expired: number; validated: number; cancelled: number }> {
    const [condition, params] = placeReachCondition(reach, 'p.id');
    const [row]: Record<'pending' | 'expired' | 'validated' | 'cancelled', string | null>[] =
      await this.dataSource.query(
        `SELECT SUM(c.status = 'pending' AND c.expires_at > ?) AS pending,
                SUM(c.status IN ('pending', 'expired') AND c.expires_at <= ? AND c.expires_at >= ?) AS expired,
                SUM(c.status = 'validated' AND c.validated_at >= ?) AS validated,
                SUM(c.status = 'cancelled' AND c.cancelled_at >= ?) AS cancelled
         FROM places p JOIN member_check_ins c ON c.place_id = p.id AND c.started_at >= ?
         WHERE ${condition}`,
        [now, now, since, since, since, startedSince, ...params],
      );
    return {
      pending: Number(row?.pending ?? 0),
      expired: Number(row?.expired ?? 0),
      validated: Number(row?.validated ?? 0),
      cancelled: Number(row?.cancelled ?? 0),
    };
  }

  /** Counts one failed look-up in the window that starts at `windowStart`, restarting the count in a new one. */
  async countFailure(placeId: string, windowStart: Date): Promise<void> {
    // MariaDB assigns left to right: `failures` is computed from the row's window before it is moved.
    await this.dataSource.query(
      `INSERT INTO token_lookup_failures (place_id, window_start, failures) VALUES (?, ?, 1)
       ON DUPLICATE KEY UPDATE failures = IF(window_start = VALUES(window_start), failures + 1, 1),
                               window_start = VALUES(window_start)`,
      [placeId, windowStart],
    );
  }
}
