// `npx ts-node -T scripts/confirm-instructions.ts` (not in CI; run `npm run bench` first, whose database it copies
// the tables from): the instructions MariaDB executes per confirmation transaction, counted by valgrind's
// callgrind in a `mariadbd` of the script's own (port BENCH_CG_PORT, 3391; data in a temporary folder; stopped at
// the end), so that a difference of a few per cent stands out where CPU time on a shared machine moves by a third.
// Variants of the transaction and of the table say what each part costs: the check-in's new state (`mark`), its
// row moved in the two unique `pending` indexes, its row grown by the new state (without the growth reserve, or
// with a fixed-width status and NOT NULL dates). BENCH_CG_COUNT transactions per
// variant and round (600), BENCH_CG_ROUNDS (2); the server runs some 50 times slower under valgrind.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, createConnection } from 'mysql2/promise';
import { mysql, SERVICE_DB } from './bench';

const COUNT = Number(process.env.BENCH_CG_COUNT ?? 600);
const ROUNDS = Number(process.env.BENCH_CG_ROUNDS ?? 2);
const PORT = Number(process.env.BENCH_CG_PORT ?? 3391);
const CONNECTIONS = 4;
const MEMBERS = 20000;
const PLACE = '11111111-1111-4111-8111-111111111111';

/** The statements, as the service sends them (prepared, `EXECUTE ... USING`); `T` is the variant's table. */
const TEXTS: Record<string, (t: string) => string> = {
  forget: () => 'SET @c = NULL, @b = NULL, @p = NULL',
  lookUp: (t) => `SELECT @c := c.id AS _id, @b := c.beneficiary_id AS _b, @p := c.place_id AS _p, c.id,
    c.beneficiary_id, c.place_id, c.plan_id, c.token, c.status, c.started_at, c.expires_at, c.validated_at
    FROM ${t} c WHERE c.confirmation_token_hash = ?`,
  lockMember: () => 'SELECT b.id FROM beneficiaries b WHERE b.id = ? FOR UPDATE',
  lockCheckIn: (t) => `SELECT c.id, c.status, c.expires_at FROM ${t} c WHERE c.id = ? FOR UPDATE`,
  touch: () =>
    'UPDATE beneficiaries SET check_in_version = check_in_version + 1, updated_at = updated_at WHERE id = ?',
  visit: () => 'INSERT INTO visits (beneficiary_id, place_id, plan_id, created_at) VALUES (?, ?, NULL, ?)',
  mark: (t) =>
    `UPDATE ${t} SET status = 'validated', validated_at = ?, visit_id = LAST_INSERT_ID(), growth_reserve = NULL
     WHERE id = ?`,
};
type Pending = { id: string; member: number; token: string; hash: string; at: string };
const VALUES: Record<string, (p: Pending) => unknown[]> = {
  forget: () => [],
  lookUp: (p) => [p.hash],
  lockMember: (p) => [p.member],
  lockCheckIn: (p) => [p.id],
  touch: (p) => [p.member],
  visit: (p) => [p.member, PLACE, p.at],
  mark: (p) => [p.at, p.id],
};
const CONFIRM = [
  ['forget', 'lookUp', 'lockMember', 'lockCheckIn'],
  ['touch', 'visit', 'mark'],
];
const NO_PENDING_INDEXES =
  'DROP INDEX UQ_member_check_ins_pending_token, DROP INDEX UQ_member_check_ins_pending_beneficiary';
const NO_GROWTH =
  "MODIFY status char(9) CHARACTER SET ascii NOT NULL, MODIFY validated_at datetime(3) NOT NULL DEFAULT '1970-01-01', MODIFY visit_id bigint unsigned NOT NULL DEFAULT 0";
/**
 * Each variant: its two round trips, how its copy of member_check_ins differs from the service's, and whether its
 * check-ins are made without their growth reserve (`noReserve`: as before 1796300000000).
 */
const VARIANTS: Record<string, { trips: string[][]; alter?: string; noReserve?: boolean }> = {
  'as built': { trips: CONFIRM },
  'without the growth reserve (before)': { trips: CONFIRM, noReserve: true },
  'without the new state (no mark)': { trips: [CONFIRM[0], ['touch', 'visit']] },
  'register-like (member lock, touch, visit)': { trips: [['lockMember'], ['touch', 'visit']] },
  'no pending indexes': { trips: CONFIRM, alter: NO_PENDING_INDEXES },
  'no row growth (fixed status, NOT NULL dates)': { trips: CONFIRM, alter: NO_GROWTH, noReserve: true },
  neither: { trips: CONFIRM, alter: `${NO_GROWTH}, ${NO_PENDING_INDEXES}`, noReserve: true },
};

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'gym-cg-'));
  const data = join(folder, 'data');
  execFileSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=normal'],
    { stdio: 'ignore' },
  );
  // No io_uring (valgrind does not follow it) and a bounded buffer pool reservation (valgrind cannot map the default).
  const server = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(folder, 'cg.out')}`,
      '/usr/sbin/mariadbd',
      '--no-defaults',
      '--user=root',
      `--datadir=${data}`,
      `--port=${PORT}`,
      `--socket=${join(folder, 'sock')}`,
      '--skip-log-bin',
      '--innodb-use-native-aio=0',
      '--innodb-buffer-pool-size-max=128M',
    ],
    { stdio: 'ignore' },
  );
  try {
    await measure(folder, server);
  } finally {
    server.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
}

async function connect(database?: string): Promise<Connection> {
  for (let waited = 0; ; waited++) {
    try {
      return await createConnection({
        host: '127.0.0.1',
        port: PORT,
        user: 'root',
        database,
        multipleStatements: true,
      });
    } catch (error) {
      if (waited > 300) throw error;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function measure(folder: string, server: ChildProcess): Promise<void> {
  const callgrind = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(server.pid)], { stdio: 'pipe' });
  const from = await mysql(SERVICE_DB);
  const admin = await connect();
  await admin.query('CREATE DATABASE cg');
  await admin.query('USE cg');
  await admin.query('SET FOREIGN_KEY_CHECKS = 0');
  for (const table of ['beneficiaries', 'visits', 'member_check_ins']) {
    const [[row]] = (await from.query(`SHOW CREATE TABLE ${table}`)) as unknown as [
      [{ 'Create Table': string }],
    ];
    // Without foreign keys: the tables they name are not copied (a confirmation never changes those columns).
    await admin.query(row['Create Table'].replace(/,\s*CONSTRAINT [^\n]+FOREIGN KEY [^\n]+/g, ''));
  }
  // A bench database made by a build before the reserve.
  await admin.query(
    'ALTER TABLE member_check_ins ADD COLUMN IF NOT EXISTS growth_reserve varbinary(16) NULL',
  );
  const [members] = (await from.query(
    `SELECT * FROM beneficiaries ORDER BY id LIMIT ${MEMBERS}`,
  )) as unknown as [Record<string, unknown>[]];
  if (members.length < COUNT)
    throw new Error(`${SERVICE_DB} has too few beneficiaries: run npm run bench first`);
  const columns = Object.keys(members[0]);
  for (let at = 0; at < members.length; at += 1000)
    await admin.query(`INSERT INTO beneficiaries (${columns.join(', ')}) VALUES ?`, [
      members.slice(at, at + 1000).map((member) => columns.map((column) => member[column])),
    ]);
  await from.end();
  const names = Object.keys(VARIANTS);
  const table = (name: string) => `check_ins_${names.indexOf(name)}`;
  for (const name of names) {
    await admin.query(`CREATE TABLE ${table(name)} LIKE member_check_ins`);
    if (VARIANTS[name].alter) await admin.query(`ALTER TABLE ${table(name)} ${VARIANTS[name].alter}`);
  }
  const connections = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect('cg')));
  for (const connection of connections)
    for (const name of names)
      for (const [key, text] of Object.entries(TEXTS))
        await connection.query(`PREPARE ${key}_${table(name)} FROM ${connection.escape(text(table(name)))}`);
  const results = new Map<string, number[]>();
  let sequence = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) {
      const t = table(name);
      const stamp = Date.now().toString(16).padStart(12, '0');
      // Time-ordered ids, as the service's are; members spread over the copied ones (distinct in a round).
      const pending: Pending[] = Array.from({ length: COUNT }, (_, i) => {
        const n = (sequence++).toString(16).padStart(12, '0');
        return {
          id: `${stamp.slice(0, 8)}-${stamp.slice(8)}-7${n.slice(0, 3)}-8${n.slice(3, 6)}-${n.slice(6)}${randomBytes(3).toString('hex')}`,
          member: Number(members[(i * 7919) % members.length].id),
          token: String(100000 + ((i * 104729) % 900000)),
          hash: randomBytes(32).toString('hex'),
          at: new Date().toISOString().slice(0, 23).replace('T', ' '),
        };
      });
      // The reserve as the service writes it (16 bytes), or none.
      const reserve = VARIANTS[name].noReserve ? null : Buffer.alloc(16);
      await admin.query(
        `INSERT INTO ${t} (id, beneficiary_id, place_id, token, confirmation_token_hash, status, started_at, expires_at,
           growth_reserve)
         VALUES ?`,
        [pending.map((p) => [p.id, p.member, PLACE, p.token, p.hash, 'pending', p.at, p.at, reserve])],
      );
      callgrind('--instr=on');
      let next = 0;
      await Promise.all(
        connections.map(async (connection) => {
          for (let p = pending[next++]; p; p = pending[next++]) {
            const execute = (key: string) => {
              const values = VALUES[key](p);
              return `EXECUTE ${key}_${t}${values.length ? ` USING ${values.map((v) => connection.escape(v)).join(', ')}` : ''}`;
            };
            const [first, second] = VARIANTS[name].trips;
            await connection.query(['START TRANSACTION', ...first.map(execute)].join(';'));
            await connection.query([...second.map(execute), 'COMMIT'].join(';'));
          }
        }),
      );
      // Purge's work on what the transactions left is part of their cost: counted while it runs.
      await new Promise((r) => setTimeout(r, 5000));
      callgrind('--instr=off');
      callgrind(`--dump=${t}`);
      await admin.query(`UPDATE ${t} SET status = 'validated' WHERE status = 'pending'`);
      const dump = readdirSync(folder)
        .filter((file) => file.startsWith('cg.out.'))
        .map((file) => join(folder, file))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
      const totals = /^totals: (\d+)/m.exec(readFileSync(dump, 'utf8'));
      rmSync(dump);
      results.set(name, [...(results.get(name) ?? []), Math.round(Number(totals?.[1]) / COUNT / 1000)]);
      console.error(`round ${round + 1}: ${name}`);
    }
  }
  console.log(
    `MariaDB's instructions per confirmation transaction, thousands (${COUNT} per round, ${CONNECTIONS} connections):`,
  );
  for (const [name, counts] of results) console.log(`  ${name.padEnd(44)} ${counts.join('  ')}`);
  await Promise.all(connections.map((connection) => connection.end()));
  await admin.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
