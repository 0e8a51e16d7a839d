import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { executePrepared, runStatement } from '../../database/prepared-statement';
import { prepared, SessionVariable, statement, Statement } from '../../database/statement-batch';
import type { AuthenticatedPlace } from '../auth/auth.types';
import {
  CheckInWithPlanRow,
  FAILURES,
  failuresJoin,
  AT_PLACE_COLUMNS,
  LATEST_AT_PLACE_JOINS,
  LOOKED_UP_COLUMNS,
  lookedUp,
  LookedUpRow,
  pendingAtPlaceJoins,
  toState,
} from '../member-check-ins/member-check-ins.repository';

/** Whose key a request presents: a partner's (every gym of the partner) or a place's (that gym). */
export type AccessCredential =
  { kind: 'partner'; partnerId: number } | { kind: 'place'; placeId: string; partnerId: number };

/** The gym a Wellhub-compatible request names, as the key presented reaches it. */
export interface AccessGym extends AuthenticatedPlace {
  gymId: number;
  credential: AccessCredential;
}

/** The key presented (its SHA-256 `hash`) and the gym_id a request names, before either is read. */
export interface AccessGymKey {
  hash: string;
  gymId: number;
  /**
   * The key has a place key's shape (`plk_`, see generateApiKey): the validate's look-up then reads the gym's own
   * key alone, and only when that is not this key, the partner's too.
   */
  placeShaped?: boolean;
}

/** The id the failed look-ups of a key are counted under: its place, or its partner. */
export function counterIdOf(credential: AccessCredential): string {
  return credential.kind === 'place' ? credential.placeId : `partner:${credential.partnerId}`;
}

/** The gym `p`'s own columns. */
const GYM_OWN_COLUMNS = `p.id AS placeId, p.gym_id AS gymId, p.code AS placeCode, p.name AS placeName,
    p.active AS placeActive, p.partner_id AS partnerId, p.key_version AS keyVersion`;
/** The columns of a gym `p` of `GYM_FROM` (values: key hash, key hash), with whether the key is its place's or its partner's. */
const GYM_COLUMNS = `${GYM_OWN_COLUMNS}, p.api_key_hash = ? AS byPlace, pt.api_key_hash = ? AS byPartner`;
const GYM_FROM = 'places p JOIN partners pt ON pt.id = p.partner_id';

/** The gym with a gym_id (values: key hash, key hash, gym_id). */
const GYM_FOR_KEY = `SELECT ${GYM_COLUMNS} FROM ${GYM_FROM} WHERE p.gym_id = ?`;

/** counterIdOf in SQL, of the gym `p` (value: key hash). */
const COUNTER_ID_SQL = "IF(p.api_key_hash = ?, p.id, CONCAT('partner:', p.partner_id))";

/**
 * The validate's look-up for any key (values: key hash, key hash, member number, window start, key hash, key
 * hash, failure limit, gym_id). The gym's columns last: the check-in's placeId, when there is one, is the gym's.
 */
const PENDING_FOR_ANY_KEY = `SELECT ${AT_PLACE_COLUMNS}, ${LOOKED_UP_COLUMNS}, ${FAILURES} AS failures, ${GYM_COLUMNS}
       FROM ${GYM_FROM} LEFT JOIN beneficiaries b ON b.member_number = ?
       ${failuresJoin(COUNTER_ID_SQL)}
       ${pendingAtPlaceJoins(`? IN (p.api_key_hash, pt.api_key_hash) AND ${FAILURES} < ?`)}
       WHERE p.gym_id = ?`;

/**
 * The validate's look-up for the gym's own place key (values: member number, window start, failure limit,
 * gym_id, key hash): the gym's row only when the key is its place's, so no row at all otherwise, and the
 * partner is not read. The shape of the look-up by token (MemberCheckInsRepository.pendingByTokenStatement).
 */
const PENDING_FOR_PLACE_KEY = `SELECT ${AT_PLACE_COLUMNS}, ${LOOKED_UP_COLUMNS}, ${FAILURES} AS failures,
       ${GYM_OWN_COLUMNS}, 1 AS byPlace, 0 AS byPartner
       FROM places p LEFT JOIN beneficiaries b ON b.member_number = ?
       ${failuresJoin('p.id')}
       ${pendingAtPlaceJoins(`${FAILURES} < ?`)}
       WHERE p.gym_id = ? AND p.api_key_hash = ?`;

interface GymRow {
  placeId: string;
  gymId: number | string;
  placeCode: string;
  placeName: string;
  placeActive: number | string;
  partnerId: number | string;
  keyVersion: number | string;
  byPlace: number | string | null;
  byPartner: number | string | null;
}

/** The gym of the row, when the key reaches it. */
function gymOf(row: GymRow | undefined): AccessGym | undefined {
  if (!row) return undefined;
  const partnerId = Number(row.partnerId);
  const credential: AccessCredential | undefined = Number(row.byPlace)
    ? { kind: 'place', placeId: row.placeId, partnerId }
    : Number(row.byPartner)
      ? { kind: 'partner', partnerId }
      : undefined;
  if (!credential) return undefined;
  return {
    placeId: row.placeId,
    placeCode: row.placeCode,
    placeName: row.placeName,
    placeActive: Boolean(Number(row.placeActive)),
    partnerId,
    keyVersion: Number(row.keyVersion),
    gymId: Number(row.gymId),
    credential,
  };
}

/** The key does not reach the gym with the gym_id (gymWithPendingCheckInStatement). */
export class KeyDoesNotReach extends Error {}

/** What gymWithPendingCheckInStatement reads. */
export interface GymWithPendingCheckIn {
  gym: AccessGym;
  /** The failed look-ups counted under the key in the window. */
  failures: number;
  /** The member's pending check-in at the gym. */
  checkIn: CheckInWithPlanRow | undefined;
  /** A member has this number. */
  memberFound: boolean;
}

/** What the facts of a sandbox check-in's event need, read after it is made. */
export interface SimulatedFacts {
  memberNumber: string;
  name: string;
  email: string | null;
  phone: string | null;
  planNames: Map<number, string>;
  additionalData: boolean;
  stored: string | null;
}

/** The look-ups of the Wellhub-compatible routes: keys and gyms, and the members' custom codes. */
@Injectable()
export class AccessControlRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The gym with this gym_id, when the key (its SHA-256 `hash`) is its place's key or its partner's. */
  async gymForKey(hash: string, gymId: number): Promise<AccessGym | undefined> {
    const rows = await executePrepared<GymRow[]>(this.dataSource, GYM_FOR_KEY, [hash, hash, gymId]);
    return gymOf(rows[0]);
  }

  /**
   * The validate's look-up, as the first statement of its confirmation's transaction: the gym as gymForKey
   * reads it, the failed look-ups counted under the key (counterIdOf) in the window that starts at
   * `windowStart`, and the member's pending check-in at the gym; it sets LOOKED_UP to that check-in, as the
   * confirmation's statements after it take it. The check-in is joined only when the key reaches the gym and
   * its failures are under `failureLimit`: otherwise LOOKED_UP is NULL (unchanged, so NULL after
   * FORGET_LOOKED_UP, when there is no such gym or, `asPlaceKey`, the key is not its place's), the request is
   * refused, and the locks sent after it lock
   * nothing. Its read throws KeyDoesNotReach when the key does not reach the gym. Only when the member has none
   * pending there (the refusals) latestCheckIn reads the latest: naming its subquery here cost the server about
   * 70 µs more per look-up, since MariaDB plans every table a statement names at each execution
   * (docs/performance.md). `asPlaceKey`: reads the gym only when the key is its place's (PENDING_FOR_PLACE_KEY),
   * without the partner's join; a partner's key then does not reach it.
   */
  gymWithPendingCheckInStatement(
    key: AccessGymKey,
    memberNumber: string,
    windowStart: Date,
    failureLimit: number,
    asPlaceKey = false,
  ): Statement<GymWithPendingCheckIn> {
    return prepared(
      asPlaceKey ? PENDING_FOR_PLACE_KEY : PENDING_FOR_ANY_KEY,
      asPlaceKey
        ? [memberNumber, windowStart, failureLimit, key.gymId, key.hash]
        : [key.hash, key.hash, memberNumber, key.hash, windowStart, key.hash, failureLimit, key.gymId],
      (result) => {
        const [row] = result as (LookedUpRow<CheckInWithPlanRow> & GymRow & { failures: string | number })[];
        const gym = gymOf(row);
        if (!gym) throw new KeyDoesNotReach();
        return {
          gym,
          failures: Number(row.failures),
          checkIn: lookedUp(row),
          memberFound: row.memberNumber !== null,
        };
      },
    );
  }

  /** The member's latest check-in at the place, with its plan's name. */
  latestCheckIn(memberNumber: string, placeId: string): Promise<CheckInWithPlanRow | undefined> {
    return runStatement(this.dataSource, this.latestCheckInStatement(memberNumber, placeId));
  }

  /** latestCheckIn's statement. */
  private latestCheckInStatement(
    memberNumber: string,
    placeId: string,
  ): Statement<CheckInWithPlanRow | undefined> {
    return prepared(
      `SELECT ${AT_PLACE_COLUMNS}, p.name AS placeName, p.code AS placeCode
       FROM places p JOIN beneficiaries b ON b.member_number = ? ${LATEST_AT_PLACE_JOINS}
       WHERE p.id = ? AND c.id IS NOT NULL`,
      [memberNumber, placeId],
      (result) => {
        const [row] = result as CheckInWithPlanRow[];
        return row && toState(row);
      },
    );
  }

  /** Whose key this is (its SHA-256 `hash`), if anyone's. */
  async credentialOf(hash: string): Promise<AccessCredential | undefined> {
    const rows: { kind: 'place' | 'partner'; placeId: string | null; partnerId: number | string }[] =
      await this.dataSource.query(
        `SELECT 'place' AS kind, id AS placeId, partner_id AS partnerId FROM places WHERE api_key_hash = ?
         UNION ALL
         SELECT 'partner', NULL, id FROM partners WHERE api_key_hash = ?`,
        [hash, hash],
      );
    const row = rows[0];
    if (!row) return undefined;
    return row.kind === 'place'
      ? { kind: 'place', placeId: String(row.placeId), partnerId: Number(row.partnerId) }
      : { kind: 'partner', partnerId: Number(row.partnerId) };
  }

  /** The gyms a credential covers, by gym_id. */
  async gymsOf(credential: AccessCredential): Promise<{ gymId: number; active: boolean }[]> {
    const rows: { gymId: number | string; active: number | string }[] = await this.dataSource.query(
      credential.kind === 'place'
        ? 'SELECT gym_id AS gymId, active FROM places WHERE id = ?'
        : 'SELECT gym_id AS gymId, active FROM places WHERE partner_id = ? ORDER BY gym_id',
      [credential.kind === 'place' ? credential.placeId : credential.partnerId],
    );
    return rows.map((row) => ({ gymId: Number(row.gymId), active: Boolean(Number(row.active)) }));
  }

  /** The beneficiary's id, by member number. */
  async memberId(memberNumber: string): Promise<number | undefined> {
    const rows: { id: number | string }[] = await this.dataSource.query(
      'SELECT id FROM beneficiaries WHERE member_number = ?',
      [memberNumber],
    );
    return rows[0] ? Number(rows[0].id) : undefined;
  }

  /** Sets the member's custom code at the place (written in the caller's transaction, or on its own). */
  customCodeStatement(
    beneficiaryId: number | SessionVariable,
    placeId: string | SessionVariable,
    customCode: string,
  ): Statement {
    return statement(
      `INSERT INTO member_custom_codes (beneficiary_id, place_id, custom_code) VALUES (?, ?, ?)
       ON DUPLICATE KEY UPDATE custom_code = VALUES(custom_code)`,
      [beneficiaryId, placeId, customCode],
    );
  }

  async setCustomCode(beneficiaryId: number, placeId: string, customCode: string): Promise<void> {
    const { sql, values } = this.customCodeStatement(beneficiaryId, placeId, customCode);
    await this.dataSource.query(sql, [...values]);
  }

  async deleteCustomCode(beneficiaryId: number, placeId: string): Promise<void> {
    await this.dataSource.query('DELETE FROM member_custom_codes WHERE beneficiary_id = ? AND place_id = ?', [
      beneficiaryId,
      placeId,
    ]);
  }

  /** The plan of the place with this id (not deleted), for the sandbox's `product_id`. */
  async planCode(placeId: string, planId: number): Promise<string | undefined> {
    const rows: { code: string }[] = await this.dataSource.query(
      'SELECT code FROM plans WHERE id = ? AND place_id = ? AND deleted_at IS NULL',
      [planId, placeId],
    );
    return rows[0]?.code;
  }

  /**
   * What the sandbox answers about a check-in it made: the member and the place's plans, whether the place's
   * Wellhub-format subscription asks for additional data, and the event's body as stored, when one was written.
   */
  async simulatedFacts(placeId: string, memberNumber: string, startedAt: Date): Promise<SimulatedFacts> {
    const [row]: {
      memberNumber: string;
      name: string;
      email: string | null;
      phone: string | null;
      planNames: string | Record<string, string> | null;
      additionalData: number | string | null;
      stored: string | null;
    }[] = await this.dataSource.query(
      `SELECT b.member_number AS memberNumber, b.name, b.email, b.phone,
              (SELECT JSON_OBJECTAGG(pl.id, pl.name) FROM plans pl WHERE pl.place_id = ?) AS planNames,
              (SELECT s.additional_data FROM webhook_subscriptions s
                WHERE s.place_id = ? AND s.type = 'WELLHUB_CHECKIN') AS additionalData,
              (SELECT d.payload FROM webhook_deliveries d WHERE d.place_id = ? AND d.event_type = 'checkin'
                 AND d.created_at = ? ORDER BY d.event_id DESC LIMIT 1) AS stored
       FROM beneficiaries b WHERE b.member_number = ?`,
      [placeId, placeId, placeId, startedAt, memberNumber],
    );
    const names = (typeof row.planNames === 'string' ? JSON.parse(row.planNames) : row.planNames) ?? {};
    return {
      memberNumber: String(row.memberNumber),
      name: row.name,
      email: row.email,
      phone: row.phone,
      planNames: new Map(
        Object.entries(names as Record<string, string>).map(([id, name]) => [Number(id), name]),
      ),
      additionalData: Boolean(Number(row.additionalData ?? 0)),
      stored: row.stored,
    };
  }
}
