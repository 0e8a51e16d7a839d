// `npx ts-node -T scripts/statement-text-cost.ts` (not in CI): the process's CPU for writing a register's two
// round trips' texts (a facts read and a lock, then the visit, the event's delivery row with a body of the bench's
// size in two parts, a statement with a session variable, and COMMIT) through a BatchTransaction, with no database:
// the connection answers at once. Two ways, in turn, ROUNDS (3) times: the batch's own literals (a connection with
// the service's `timezone: 'Z'`, see src/database/sql-literal.ts) and mysql2's (any other time zone: each value
// escaped by mysql2). µs per register, after a warm-up of 20,000.
import { escape, format, PoolConnection, SqlValue } from 'mysql2';
import { BatchTransaction, prepared, SessionVariable, statement } from '../src/database/statement-batch';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const REGISTERS = 100_000;

function connectionWith(timezone: string): PoolConnection {
  return {
    config: { timezone },
    // As the service's batch pool formats (data-source.ts): a text with no values goes as it is.
    format: (sql: string, values: SqlValue[]) => (values.length > 0 ? format(sql, values, false, 'Z') : sql),
    escape: (value: SqlValue) => escape(value, false, 'Z'),
    query({ sql }: { sql: string }, callback: (error: Error | null, result: unknown) => void) {
      const statements = sql.split(';\n').length;
      const ok = { affectedRows: 1 };
      callback(null, statements === 1 ? ok : Array.from({ length: statements }, () => ok));
    },
  } as unknown as PoolConnection;
}

const PLACE = '11111111-2222-3333-4444-555555555555';
const body = JSON.stringify({
  id: 'evt_0123456789abcdef0123456789abcdef',
  type: 'CHECK_IN_CREATED',
  created_at: '2026-11-30T09:00:00.000-03:00',
  check_in: {
    id: 'VISIT',
    status: 'validated',
    started_at: '2026-11-30T09:00:00.000-03:00',
    expires_at: '2026-11-30T10:00:00.000-03:00',
    plan_code: 'GOLD',
  },
  place: { place: PLACE, name: 'Academia Paulista Centro', code: '59TADO9F' },
  user: {
    name: 'Maria da Conceição Silva',
    email: 'maria.silva@example.com',
    phone: '+5511999999999',
    document_number: '12345678909',
    document_type: 'cpf',
    code: 'ABCD1234',
  },
});
const [beforeVisit, afterVisit] = body.split('"VISIT"');
const FACTS = `SELECT ${'p.column, '.repeat(40)} (SELECT COUNT(*) FROM visits WHERE created_at >= ? AND created_at > ? AND created_at >= ?) FROM places p LEFT JOIN beneficiaries b ON b.cpf = ? WHERE p.id = ?`;
const LOCK = 'SELECT b.id FROM beneficiaries b WHERE b.cpf = ? FOR UPDATE';
const VISIT = 'INSERT INTO visits (beneficiary_id, place_id, plan_id, created_at) VALUES (?, ?, ?, ?)';
const EVENT = `INSERT INTO webhook_deliveries (id, event_id, event_type, payload, request_id, subscription_id, place_id,
  url, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, CONCAT(?, LAST_INSERT_ID(), ?), ?, ?, ?, ?, 'pending', 0, ?, ?)`;

async function register(connection: PoolConnection): Promise<void> {
  const tx = new BatchTransaction(connection);
  const now = new Date();
  await tx.run(prepared(FACTS, [now, now, now, '12345678909', PLACE]), prepared(LOCK, ['12345678909']));
  await tx.commit(
    prepared(VISIT, [123456, PLACE, 7, now]),
    prepared(EVENT, [
      'dlv_0123456789abcdef0123456789abcdef',
      'evt_0123456789abcdef0123456789abcdef',
      'CHECK_IN_CREATED',
      `${beforeVisit}"`,
      `"${afterVisit}`,
      'f1a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8',
      'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      PLACE,
      'http://127.0.0.1:9999/hooks',
      now,
      now,
    ]),
    statement('UPDATE visits SET plan_id = plan_id WHERE id = ? AND beneficiary_id = ?', [
      new SessionVariable('visit_id'),
      123456,
    ]),
  );
}

async function microsPerRegister(connection: PoolConnection): Promise<number> {
  const started = process.hrtime.bigint();
  for (let n = 0; n < REGISTERS; n++) await register(connection);
  return Number(process.hrtime.bigint() - started) / 1000 / REGISTERS;
}

async function main(): Promise<void> {
  const ways = { "the batch's literals": connectionWith('Z'), "mysql2's literals": connectionWith('local') };
  for (const connection of Object.values(ways)) for (let n = 0; n < 20_000; n++) await register(connection);
  const results: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, connection] of Object.entries(ways))
      (results[label] ??= []).push(await microsPerRegister(connection));
  }
  for (const [label, micros] of Object.entries(results))
    console.log(`${label.padEnd(22)} ${micros.map((each) => each.toFixed(1)).join(' / ')} µs per register`);
}

void main();
