// `npx ts-node -T scripts/write-cost.ts [CONNECTIONS]` (not in CI): MariaDB's CPU per write transaction of the
// register path (the visit, its delivery row, which carries the event) against the reference's (the visit, one outbox row),
// each alone and together, with CONNECTIONS (16) connections writing at once, read from /proc. Runs on copies of
// the tables of the bench's database (`BENCH_DATABASE`, gym_bench: run `npm run bench` first) in a scratch
// database of its own, dropped at the end; three rounds, each kind in turn.
import mysql, { Connection } from 'mysql2/promise';
import { SERVICE_DB } from './bench';
import { cpuMicros, mariadbPid } from './process-cpu';

const CONNECTIONS = Number(process.argv[2] ?? 16);
const TRANSACTIONS = 8000;
const SCRATCH = 'gym_write_cost';
const server = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/');
const options = {
  host: server.hostname,
  port: Number(server.port || 3306),
  user: decodeURIComponent(server.username),
  password: decodeURIComponent(server.password),
  multipleStatements: true,
};

/** Each kind: the statements of its transaction, between START TRANSACTION and COMMIT. */
const KINDS: Record<string, string[]> = {
  'nothing written': [],
  'service: visit': ['visit'],
  'service: delivery row': ['delivery'],
  'service: visit and delivery row': ['visit', 'delivery'],
  // The layout before 4461386: the event in a row of its own, beside a delivery row without it.
  'service before: event and delivery rows': ['eventBefore', 'deliveryBefore'],
  'service before: visit, event, delivery': ['visit', 'eventBefore', 'deliveryBefore'],
  'reference: visit': ['usage'],
  'reference: outbox row': ['outbox'],
  'reference: visit and outbox row': ['usage', 'outbox'],
};

async function main(): Promise<void> {
  const admin = await mysql.createConnection(options);
  const pid = await mariadbPid(admin);
  await admin.query(`DROP DATABASE IF EXISTS ${SCRATCH}; CREATE DATABASE ${SCRATCH}; USE ${SCRATCH}`);
  for (const table of ['beneficiaries', 'visits', 'webhook_deliveries'])
    await admin.query(`CREATE TABLE ${table} LIKE \`${SERVICE_DB}\`.${table}`);
  await admin.query(`INSERT INTO beneficiaries SELECT * FROM \`${SERVICE_DB}\`.beneficiaries`);
  // The reference's two tables, as its seed creates them.
  await admin.query(`CREATE TABLE events_before (id varchar(40) NOT NULL, place_id char(36) NOT NULL,
      type varchar(32) NOT NULL, payload mediumtext NOT NULL, created_at datetime(3) NOT NULL,
      request_id varchar(64) NULL, PRIMARY KEY (id), KEY (place_id, created_at));
    CREATE TABLE deliveries_before LIKE webhook_deliveries;
    ALTER TABLE deliveries_before DROP COLUMN event_type, DROP COLUMN payload, DROP COLUMN request_id`);
  await admin.query(`CREATE TABLE track_usages (id BIGINT PRIMARY KEY AUTO_INCREMENT, beneficiary_id INT, place_id INT,
      created_at DATETIME(3), KEY (beneficiary_id, created_at));
    CREATE TABLE outbox (id BIGINT PRIMARY KEY AUTO_INCREMENT, type VARCHAR(64), payload JSON, created_at DATETIME(3),
      delivered_at DATETIME(3) NULL, KEY (delivered_at, id))`);
  const [[delivery]] = (await admin.query(
    `SELECT * FROM \`${SERVICE_DB}\`.webhook_deliveries LIMIT 1`,
  )) as unknown as [[Record<string, string>]];
  if (!delivery) throw new Error(`${SERVICE_DB} has no delivered event: run npm run bench first`);
  const [[{ low, count }]] = (await admin.query(
    'SELECT MIN(id) AS low, COUNT(*) AS count FROM beneficiaries',
  )) as unknown as [[{ low: number; count: number }]];

  let sequence = 0;
  // Time-ordered ids, as the service's are.
  const id = (prefix: string) =>
    `${prefix}_${Date.now().toString(16).padStart(12, '0')}${(sequence++).toString(16).padStart(20, '0')}`;
  const beneficiary = () => low + (sequence++ % count);
  const write: Record<string, (c: Connection) => string> = {
    visit: (c) =>
      c.format(
        'INSERT INTO visits (beneficiary_id, place_id, plan_id, created_at) VALUES (?, ?, NULL, NOW(3))',
        [beneficiary(), delivery.place_id],
      ),
    delivery: (c) =>
      c.format(
        `INSERT INTO webhook_deliveries (id, event_id, event_type, payload, request_id, subscription_id, place_id, url,
           status, attempts, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, NOW(3), NOW(3))`,
        [
          id('dlv'),
          id('evt'),
          delivery.event_type,
          delivery.payload,
          delivery.request_id,
          delivery.subscription_id,
          delivery.place_id,
          delivery.url,
        ],
      ),
    eventBefore: (c) =>
      c.format(
        'INSERT INTO events_before (id, place_id, type, payload, created_at, request_id) VALUES (?, ?, ?, ?, NOW(3), ?)',
        [id('evt'), delivery.place_id, delivery.event_type, delivery.payload, delivery.request_id],
      ),
    deliveryBefore: (c) =>
      c.format(
        `INSERT INTO deliveries_before (id, event_id, subscription_id, place_id, url, status, attempts, next_attempt_at,
           created_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, NOW(3), NOW(3))`,
        [id('dlv'), id('evt'), delivery.subscription_id, delivery.place_id, delivery.url],
      ),
    usage: (c) =>
      c.format('INSERT INTO track_usages (beneficiary_id, place_id, created_at) VALUES (?, 1, NOW(3))', [
        beneficiary(),
      ]),
    outbox: (c) =>
      c.format("INSERT INTO outbox (type, payload, created_at) VALUES ('checkin.created', ?, NOW(3))", [
        JSON.stringify({ id: sequence++, cpf: '12345678901' }),
      ]),
  };
  const connections = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => mysql.createConnection({ ...options, database: SCRATCH })),
  );
  const each = Math.ceil(TRANSACTIONS / CONNECTIONS);
  const results: Record<string, number[]> = {};
  for (let round = 0; round < 3; round++) {
    for (const [kind, statements] of Object.entries(KINDS)) {
      const text = (c: Connection) =>
        ['START TRANSACTION', ...statements.map((s) => write[s](c)), 'COMMIT'].join(';');
      const before = cpuMicros(pid);
      await Promise.all(
        connections.map(async (c) => {
          for (let i = 0; i < each; i++) await c.query(text(c));
        }),
      );
      (results[kind] ??= []).push(Math.round((cpuMicros(pid) - before) / (each * CONNECTIONS)));
    }
  }
  console.log(`MariaDB CPU per transaction, µs, ${CONNECTIONS} connections at once (three rounds):`);
  for (const [kind, values] of Object.entries(results))
    console.log(`  ${kind.padEnd(36)} ${values.join(' ')}`);
  await Promise.all(connections.map((c) => c.end()));
  await admin.query(`DROP DATABASE ${SCRATCH}`);
  await admin.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
