// `npx ts-node -T scripts/lookup-cost.ts` (not in CI): MariaDB's CPU per look-up of a member check-in, by token
// (a confirmation at the desk) and by member number (the Wellhub-compatible validate), as one statement that also
// names the latest check-in's subquery (the layout before) and as the pending check-in joined by its unique key,
// the latest read in a second statement only when none is pending (now); the look-up by confirmation hash (the
// `endpoint`) beside them; and the look-ups of the endpoint, of the token (at large, and for a confirmation) and
// of the Wellhub validate (any key, and the gym's place key) as the service builds them now ("as built"). Read
// from /proc, 16 connections at once, LOOKUPS (4,000) look-ups per kind, ROUNDS (3) rounds
// after a warm-up round. Runs on copies of the places, partners, plans and beneficiaries of the bench's
// database (`BENCH_DATABASE`, gym_bench: run `npm run bench` first) in a scratch database of its own with 20,000
// pending check-ins (one per beneficiary, distinct tokens), dropped at the end. The server is found through its
// pid file, so it must run on this machine.
import type { Connection } from 'mysql2/promise';
import { GYM_CODE, mysql, SERVICE_DB } from './bench';
import { mariadbPid, serverCpuPerCall } from './process-cpu';
import {
  AT_PLACE_COLUMNS,
  LATEST_AT_PLACE_JOINS,
  MemberCheckInsRepository,
  pendingAtPlaceJoins,
} from '../src/modules/member-check-ins/member-check-ins.repository';
import { AccessControlRepository } from '../src/modules/access-control/access-control.repository';
import type { Statement } from '../src/database/statement-batch';

const SCRATCH = 'gym_lookup_cost';
const CONNECTIONS = 16;
const CHECK_INS = 20_000;
const LOOKUPS = Number(process.env.LOOKUPS ?? 4000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** No check-in has it: every token is 6 digits up to CHECK_INS. */
const UNKNOWN_TOKEN = '999999';

const ROW_COLUMNS = `c.id, c.beneficiary_id AS beneficiaryId, c.place_id AS placeId, c.plan_id AS planId, c.token,
  c.status, c.started_at AS startedAt, c.expires_at AS expiresAt, c.validated_at AS validatedAt,
  pl.code AS planCode, p.name AS placeName, p.code AS placeCode, b.code AS beneficiaryCode,
  b.member_number AS memberNumber`;
const ROW_SELECT = `SELECT ${ROW_COLUMNS} FROM member_check_ins c JOIN places p ON p.id = c.place_id
  JOIN beneficiaries b ON b.id = c.beneficiary_id LEFT JOIN plans pl ON pl.id = c.plan_id`;

/** The failed look-ups as a subquery, as the statements measured here read them. */
function failuresSql(counterId: string): string {
  return `COALESCE((SELECT failures FROM token_lookup_failures WHERE place_id = ${counterId} AND window_start = ?), 0)`;
}

const TOKEN_BEFORE = `SELECT ${failuresSql('p.id')} AS failures, ${ROW_COLUMNS}
  FROM places p
  LEFT JOIN member_check_ins c ON c.id = COALESCE(
    (SELECT l.id FROM member_check_ins l WHERE l.pending = 1 AND l.place_id = p.id AND l.token = ?),
    (SELECT l.id FROM member_check_ins l WHERE l.place_id = p.id AND l.token = ? ORDER BY l.started_at DESC LIMIT 1))
  LEFT JOIN beneficiaries b ON b.id = c.beneficiary_id LEFT JOIN plans pl ON pl.id = c.plan_id
  WHERE p.id = ?`;
const TOKEN_PENDING = `SELECT ${failuresSql('p.id')} AS failures, ${ROW_COLUMNS}
  FROM places p
  LEFT JOIN member_check_ins c ON c.pending = 1 AND c.place_id = p.id AND c.token = ?
  LEFT JOIN beneficiaries b ON b.id = c.beneficiary_id LEFT JOIN plans pl ON pl.id = c.plan_id
  WHERE p.id = ?`;
const TOKEN_LATEST = `${ROW_SELECT} WHERE c.place_id = ? AND c.token = ? ORDER BY c.started_at DESC LIMIT 1`;

const COUNTER_ID = "IF(p.api_key_hash = ?, p.id, CONCAT('partner:', p.partner_id))";
const GYM_COLUMNS = `p.id AS gymPlaceId, p.gym_id AS gymId, p.code AS gymCode, p.name AS gymName, p.active,
  p.partner_id AS partnerId, p.key_version AS keyVersion, p.api_key_hash = ? AS byPlace, pt.api_key_hash = ? AS byPartner`;
const MEMBER_FROM =
  'places p JOIN partners pt ON pt.id = p.partner_id LEFT JOIN beneficiaries b ON b.member_number = ?';
const MEMBER_BEFORE = `SELECT ${AT_PLACE_COLUMNS}, ${failuresSql(COUNTER_ID)} AS failures, ${GYM_COLUMNS}
  FROM ${MEMBER_FROM} ${LATEST_AT_PLACE_JOINS} WHERE p.gym_id = ?`;
const MEMBER_PENDING = `SELECT ${AT_PLACE_COLUMNS}, ${failuresSql(COUNTER_ID)} AS failures, ${GYM_COLUMNS}
  FROM ${MEMBER_FROM} ${pendingAtPlaceJoins('TRUE')} WHERE p.gym_id = ?`;
const MEMBER_LATEST = `SELECT ${AT_PLACE_COLUMNS} FROM places p JOIN beneficiaries b ON b.member_number = ?
  ${LATEST_AT_PLACE_JOINS} WHERE p.id = ? AND c.id IS NOT NULL`;

interface CheckIn {
  token: string;
  hash: string;
  memberNumber: string;
}

async function main(): Promise<void> {
  const source = process.env.BENCH_DATABASE ?? SERVICE_DB;
  const admin = await mysql();
  const pid = await mariadbPid(admin);
  await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
  await admin.query(`CREATE DATABASE ${SCRATCH}`);
  await admin.query(`USE ${SCRATCH}`);
  for (const table of [
    'places',
    'partners',
    'plans',
    'beneficiaries',
    'member_check_ins',
    'token_lookup_failures',
  ]) {
    await admin.query(`CREATE TABLE ${table} LIKE ${source}.${table}`);
    if (!['member_check_ins', 'token_lookup_failures'].includes(table))
      await admin.query(`INSERT INTO ${table} SELECT * FROM ${source}.${table}`);
  }
  const [[gym]] = (await admin.query(
    'SELECT id, gym_id AS gymId, api_key_hash AS keyHash FROM places WHERE code = ?',
    [GYM_CODE],
  )) as unknown as [[{ id: string; gymId: number; keyHash: string }]];
  await admin.query('SET @n = 0');
  await admin.query(
    `INSERT INTO member_check_ins
       (id, beneficiary_id, place_id, token, confirmation_token_hash, status, started_at, expires_at)
     SELECT UUID(), b.id, ?, LPAD(@n := @n + 1, 6, '0'), SHA2(UUID(), 256), 'pending', NOW(3), NOW(3) + INTERVAL 1 DAY
     FROM beneficiaries b ORDER BY b.id LIMIT ?`,
    [gym.id, CHECK_INS],
  );
  const [checkIns] = (await admin.query(
    `SELECT c.token, c.confirmation_token_hash AS hash, b.member_number AS memberNumber
     FROM member_check_ins c JOIN beneficiaries b ON b.id = c.beneficiary_id`,
  )) as unknown as [CheckIn[]];
  const windowStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const confirmations = new MemberCheckInsRepository(undefined as never);
  const access = new AccessControlRepository(undefined as never);
  /** The validate's look-up with the gym's place key, read for any key or as the place's own. */
  const wellhub = (memberNumber: string, asPlaceKey: boolean) =>
    access.gymWithPendingCheckInStatement(
      { hash: gym.keyHash, gymId: gym.gymId },
      memberNumber,
      windowStart,
      10,
      asPlaceKey,
    );
  const execute = (c: Connection, statement: Statement) =>
    c.execute(statement.sql, [...statement.values] as (string | number | Date | null)[]);
  const memberValues = (memberNumber: string) => [
    gym.keyHash,
    windowStart,
    gym.keyHash,
    gym.keyHash,
    memberNumber,
    gym.gymId,
  ];
  const kinds: Record<string, (c: Connection, each: CheckIn) => Promise<unknown>> = {
    'token, pending found: one statement (before)': (c, each) =>
      c.execute(TOKEN_BEFORE, [windowStart, each.token, each.token, gym.id]),
    'token, pending found: pending by its key (now)': (c, each) =>
      c.execute(TOKEN_PENDING, [windowStart, each.token, gym.id]),
    'token, none found: one statement (before)': (c) =>
      c.execute(TOKEN_BEFORE, [windowStart, UNKNOWN_TOKEN, UNKNOWN_TOKEN, gym.id]),
    'token, none found: both statements (now)': async (c) => {
      await c.execute(TOKEN_PENDING, [windowStart, UNKNOWN_TOKEN, gym.id]);
      await c.execute(TOKEN_LATEST, [gym.id, UNKNOWN_TOKEN]);
    },
    'member number, pending found: one statement (before)': (c, each) =>
      c.execute(MEMBER_BEFORE, memberValues(each.memberNumber)),
    'member number, pending found: pending by its key (now)': (c, each) =>
      c.execute(MEMBER_PENDING, memberValues(each.memberNumber)),
    'member number, both statements (now, none pending)': async (c, each) => {
      await c.execute(MEMBER_PENDING, memberValues(each.memberNumber));
      await c.execute(MEMBER_LATEST, [each.memberNumber, gym.id]);
    },
    'confirmation hash (the endpoint, before c36ba78)': (c, each) =>
      c.execute(`${ROW_SELECT} WHERE c.confirmation_token_hash = ?`, [each.hash]),
    // The statements the service sends now, from its own builders (their repositories' connections unused).
    'confirmation hash (the endpoint, as built)': (c, each) =>
      execute(c, confirmations.byConfirmationHashStatement(each.hash)),
    'token, for its check-in at large (as built)': (c, each) =>
      execute(c, confirmations.pendingByTokenStatement(gym.id, each.token, windowStart, 10)),
    'token, for a confirmation (as built)': (c, each) =>
      execute(c, confirmations.pendingToConfirmByTokenStatement(gym.id, each.token, windowStart, 10)),
    'Wellhub validate, any key (as built)': (c, each) => execute(c, wellhub(each.memberNumber, false)),
    'Wellhub validate, place key (as built)': (c, each) => execute(c, wellhub(each.memberNumber, true)),
  };
  const connections = await Promise.all(Array.from({ length: CONNECTIONS }, () => mysql(SCRATCH)));
  const results = await serverCpuPerCall(
    pid,
    connections,
    Object.fromEntries(
      Object.entries(kinds).map(([name, run]) => [
        name,
        (connection: Connection, n: number) => run(connection, checkIns[n % checkIns.length]),
      ]),
    ),
    LOOKUPS,
    ROUNDS,
  );
  console.log(`MariaDB's CPU per look-up, ${CONNECTIONS} connections, ${ROUNDS} rounds:`);
  for (const [name, values] of results) console.log(`  ${name.padEnd(56)} ${values.join(', ')} µs`);
  for (const connection of connections) await connection.end();
  await admin.query(`DROP DATABASE ${SCRATCH}`);
  await admin.end();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
