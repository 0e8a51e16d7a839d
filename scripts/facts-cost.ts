// `npx ts-node -T scripts/facts-cost.ts` (not in CI): MariaDB's CPU per check-in facts read (the statement a
// register sends after locking the beneficiary), without the subscriber's columns (a gym with no subscription),
// with them as the service reads them now (the CHECKIN subscription's id and URL from the place's summary
// columns) and as it read them before (a join of `webhook_subscriptions`). Read from /proc, 16 connections at
// once, FACTS (8,000) reads per kind, ROUNDS (4) rounds after a warm-up one, the kinds in turn. Reads the bench's
// database (`BENCH_DATABASE`, gym_bench: run `npm run bench` first) and writes nothing. The server is found through
// its pid file, so it must run on this machine.
import type { Connection } from 'mysql2/promise';
import { GYM_CODE, mysql, SERVICE_DB } from './bench';
import { mariadbPid, serverCpuPerCall } from './process-cpu';
import { BeneficiaryKey, EligibilityRepository } from '../src/modules/eligibility/eligibility.repository';

const CONNECTIONS = 16;
const FACTS = Number(process.env.FACTS ?? 8000);
const ROUNDS = Number(process.env.ROUNDS ?? 4);

/** The subscriber's columns and join as the facts read had them before the place's summary carried them. */
const JOINED_COLUMNS = `, p.name AS placeName, b.name, b.email, b.phone, b.cpf, s.id AS subscriptionId, s.url`;
const JOIN = `LEFT JOIN webhook_subscriptions s
  ON p.check_in_webhook = 1 AND s.place_id = p.id AND s.type = 'CHECKIN' AND s.active = 1`;

async function main(): Promise<void> {
  const database = process.env.BENCH_DATABASE ?? SERVICE_DB;
  const admin = await mysql(database);
  const pid = await mariadbPid(admin);
  const [[place]] = (await admin.query('SELECT id FROM places WHERE code = ?', [GYM_CODE])) as unknown as [
    [{ id: string }],
  ];
  const [rows] = (await admin.query(
    'SELECT cpf FROM beneficiaries ORDER BY RAND() LIMIT 20000',
  )) as unknown as [{ cpf: string }[]];
  const repository = new EligibilityRepository(undefined as never);
  const now = new Date();
  const window = {
    monthStart: new Date(now.getFullYear(), now.getMonth(), 1),
    recentSince: new Date(now.getTime() - 3_600_000),
  };
  const facts = (cpf: string, subscriber: 'none' | 'checkIn') =>
    repository.factsStatement(
      place.id,
      { type: 'cpf', identifier: cpf } as BeneficiaryKey,
      window,
      subscriber,
    );
  const sample = facts(rows[0].cpf, 'none').sql;
  const joined = sample
    .replace(/\s+FROM places p/, `${JOINED_COLUMNS}\n       FROM places p`)
    .replace(/\s+WHERE p\.id = \?$/, `\n       ${JOIN}\n       WHERE p.id = ?`);
  if (joined === sample) throw new Error('The facts read changed shape: update the joined form here');
  const kinds: Record<string, (cpf: string) => { sql: string; values: readonly unknown[] }> = {
    'no subscriber columns': (cpf) => facts(cpf, 'none'),
    'subscriber from the place summary (now)': (cpf) => facts(cpf, 'checkIn'),
    'subscriber joined (before)': (cpf) => ({ sql: joined, values: facts(cpf, 'none').values }),
  };
  const connections: Connection[] = await Promise.all(
    Array.from({ length: CONNECTIONS }, () => mysql(database)),
  );
  const results = await serverCpuPerCall(
    pid,
    connections,
    Object.fromEntries(
      Object.entries(kinds).map(([name, statementOf]) => [
        name,
        (connection: Connection, n: number) => {
          const { sql, values } = statementOf(rows[n % rows.length].cpf);
          return connection.execute(sql, values as never[]);
        },
      ]),
    ),
    FACTS,
    ROUNDS,
  );
  console.log(`MariaDB's CPU per facts read, ${CONNECTIONS} connections, ${ROUNDS} rounds:`);
  for (const [name, values] of results) console.log(`  ${name.padEnd(42)} ${values.join(', ')} µs`);
  await Promise.all(connections.map((connection) => connection.end()));
  await admin.end();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
