// `npm run bench:scale` (not in CI): validate and register on a small database, then on a national-scale one
// (BENCH_SCALE_BENEFICIARIES, default 10,000,000; BENCH_SCALE_VISITS, default 50,000,000), in one run of the
// service. Prints how long the bulk load took and the size of the visits table and its indexes per million
// visits. See README "Performance".
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Connection } from 'mysql2/promise';
import { cpfFromBase } from '../src/common/domain/cpf';
import {
  combine,
  fmt,
  GYM_CODE,
  load,
  LoadResult,
  log,
  memoryOf,
  mysql,
  POOL,
  Receiver,
  ROUNDS,
  runBench,
  seedService,
  SECONDS,
  SERVICE_DB,
  SERVICE_PORT,
  settle,
  startService,
  WARMUP_SECONDS,
  drain,
} from './bench';

const BENEFICIARIES = Number(process.env.BENCH_SCALE_BENEFICIARIES ?? 10_000_000);
/**
 * BENCH_SCALE_BUFFER_POOL (e.g. `6G`): run on a MariaDB server of the bench's own (port 3407, data in
 * BENCH_SCALE_DATADIR or the temp folder) with an InnoDB buffer pool of that size, as a database server for
 * this many rows would be configured, instead of the one at BENCH_MYSQL_URL.
 */
const BUFFER_POOL = process.env.BENCH_SCALE_BUFFER_POOL;
const OWN_PORT = 3407;
/** BENCH_SCALE_PARTITIONS=1: after the large runs, partition `visits` by month and measure again (README's plan). */
const PARTITIONS = process.env.BENCH_SCALE_PARTITIONS === '1';
const VISITS = Number(process.env.BENCH_SCALE_VISITS ?? 50_000_000);
/** Visits per INSERT … SELECT: one transaction each. */
const VISIT_CHUNK = 1_000_000;
/** Places the generated visits are spread over (ids only: visits keep no foreign key to places). */
const PLACES = 1000;
/** Registers use beneficiaries after the validate pool, so that validate never meets one with a recent visit. */
const REGISTER_RESERVE = 200_000;
const BASE = `http://127.0.0.1:${SERVICE_PORT}`;

/** A unique 8-character code per row number: a multiplication by a unit modulo 36^8, in base 36. */
function codeOf(i: number): string {
  return ((i * 1_000_003) % 36 ** 8).toString(36).toUpperCase().padStart(8, '0');
}

/** Tab-separated beneficiaries `from` to `to` (exclusive), generated as the stream is read. */
function beneficiaryRows(from: number, to: number, planId: number): Readable {
  let next = from;
  return new Readable({
    read() {
      if (next >= to) return void this.push(null);
      const lines: string[] = [];
      for (const end = Math.min(to, next + 10_000); next < end; next++) {
        lines.push(
          `${next + 1}\t${cpfFromBase(100000000 + next)}\t${codeOf(next)}\tB${next}\t1\t${planId}\n`,
        );
      }
      this.push(lines.join(''));
    },
  });
}

/** Beneficiaries `from` to `to` with LOAD DATA LOCAL INFILE, their ids being row number + 1. */
async function loadBeneficiaries(db: Connection, from: number, to: number, planId: number): Promise<void> {
  await db.query({
    sql: `LOAD DATA LOCAL INFILE 'beneficiaries.tsv' INTO TABLE beneficiaries
          FIELDS TERMINATED BY '\\t' (id, cpf, code, name, active, benefit_plan_id)`,
    infileStreamFactory: () => beneficiaryRows(from, to, planId),
  } as unknown as string);
}

async function createTable(db: Connection, table: string): Promise<string> {
  const [[row]] = (await db.query(`SHOW CREATE TABLE \`${table}\``)) as unknown as [
    [{ 'Create Table': string }],
  ];
  return row['Create Table'].replace(/ AUTO_INCREMENT=\d+/, '');
}

/**
 * The secondary indexes of `table` are dropped for the load and built again afterwards with their own
 * definitions (a sorted build instead of millions of random inserts into a 128 MB buffer pool); the table's
 * definition is compared before and after.
 */
async function withoutSecondaryIndexes(
  db: Connection,
  table: string,
  indexes: string[],
  work: () => Promise<void>,
): Promise<{ loadSeconds: number; indexSeconds: number }> {
  const before = await createTable(db, table);
  const definitions = indexes.map((name) => {
    const line = before.split('\n').find((l) => l.includes(`KEY \`${name}\``));
    if (!line) throw new Error(`${table} has no index ${name}`);
    return line.trim().replace(/,$/, '');
  });
  await db.query('SET foreign_key_checks = 0, unique_checks = 0');
  await db.query(`ALTER TABLE \`${table}\` ${indexes.map((name) => `DROP INDEX \`${name}\``).join(', ')}`);
  const started = Date.now();
  await work();
  const loaded = Date.now();
  await db.query(`ALTER TABLE \`${table}\` ${definitions.map((d) => `ADD ${d}`).join(', ')}`);
  await db.query('SET foreign_key_checks = 1, unique_checks = 1');
  const after = await createTable(db, table);
  if (after !== before) throw new Error(`${table} changed in the load:\n${before}\n${after}`);
  return { loadSeconds: (loaded - started) / 1000, indexSeconds: (Date.now() - loaded) / 1000 };
}

async function sizes(
  db: Connection,
  table: string,
): Promise<{ dataMb: number; indexMb: number; rows: number }> {
  await db.query(`ANALYZE TABLE \`${table}\` PERSISTENT FOR ALL`);
  const [[row]] = (await db.query(
    `SELECT data_length AS data, index_length AS idx FROM information_schema.tables
     WHERE table_schema = ? AND table_name = ?`,
    [SERVICE_DB, table],
  )) as unknown as [[{ data: number; idx: number }]];
  const [[count]] = (await db.query(`SELECT COUNT(*) AS n FROM \`${table}\``)) as unknown as [
    [{ n: number }],
  ];
  return { dataMb: Number(row.data) / 2 ** 20, indexMb: Number(row.idx) / 2 ** 20, rows: Number(count.n) };
}

/** `p2026_03` for March 2026. */
function monthPartition(month: Date): string {
  return `p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * The plan for years of visits, tried on the loaded table: one partition per month (13 back, 3 ahead and
 * `pmax`). MariaDB wants the partitioning column in the primary key and no foreign keys on a partitioned
 * table, so those change too. Times the rebuild, then the archive of the oldest month: its partition
 * exchanged with an empty table of the same shape (what a monthly job would dump and drop).
 */
async function partitionByMonth(db: Connection): Promise<{ partitionSeconds: number; archive: string }> {
  const now = new Date();
  const months: Date[] = [];
  for (let back = 12; back >= -3; back--) {
    months.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)));
  }
  const ranges = months.map((month) => {
    const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    return `PARTITION ${monthPartition(month)} VALUES LESS THAN ('${end.toISOString().slice(0, 10)}')`;
  });
  const [foreignKeys] = (await db.query(
    `SELECT constraint_name AS name FROM information_schema.table_constraints
     WHERE table_schema = ? AND table_name = 'visits' AND constraint_type = 'FOREIGN KEY'`,
    [SERVICE_DB],
  )) as unknown as [{ name: string }[]];
  let started = Date.now();
  await db.query(
    `ALTER TABLE visits ${foreignKeys.map(({ name }) => `DROP FOREIGN KEY \`${name}\`, `).join('')}
       DROP PRIMARY KEY, ADD PRIMARY KEY (id, created_at)`,
  );
  await db.query(
    `ALTER TABLE visits PARTITION BY RANGE COLUMNS (created_at) (${ranges.join(', ')}, PARTITION pmax VALUES LESS THAN (MAXVALUE))`,
  );
  const partitionSeconds = (Date.now() - started) / 1000;

  const oldest = monthPartition(months[0]);
  const [[{ n }]] = (await db.query(`SELECT COUNT(*) AS n FROM visits PARTITION (${oldest})`)) as unknown as [
    [{ n: number }],
  ];
  started = Date.now();
  await db.query(`CREATE TABLE visits_archive LIKE visits`);
  await db.query('ALTER TABLE visits_archive REMOVE PARTITIONING');
  await db.query(`ALTER TABLE visits EXCHANGE PARTITION ${oldest} WITH TABLE visits_archive`);
  const exchangeSeconds = (Date.now() - started) / 1000;
  started = Date.now();
  await db.query('DROP TABLE visits_archive');
  await db.query(`ALTER TABLE visits DROP PARTITION ${oldest}`);
  const dropSeconds = (Date.now() - started) / 1000;
  return {
    partitionSeconds,
    archive: `${oldest} (${Number(n)} visits) exchanged out in ${exchangeSeconds.toFixed(1)} s, dropped in ${dropSeconds.toFixed(1)} s`,
  };
}

/** A mariadbd of the bench's own, with the buffer pool asked for; resolves once it accepts connections. */
async function startOwnMariaDb(bufferPool: string): Promise<{ child: ChildProcess; dir: string }> {
  const dir = join(process.env.BENCH_SCALE_DATADIR ?? tmpdir(), `gym-bench-scale-${process.pid}`);
  const dataDir = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  const install = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${dataDir}`, '--auth-root-authentication-method=normal', '--skip-test-db'],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db failed:\n${install.stdout}${install.stderr}`);
  const child = spawn(
    'mariadbd',
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      `--port=${OWN_PORT}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mariadb.sock')}`,
      `--innodb-buffer-pool-size=${bufferPool}`,
      '--innodb-log-file-size=1G',
      '--max-connections=500',
      '--skip-log-bin',
      ...(process.getuid?.() === 0 ? ['--user=root'] : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !output.includes('ready for connections'); waited += 100) {
    if (child.exitCode !== null || waited > 60_000) throw new Error(`mariadbd did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.env.BENCH_MYSQL_URL = `mysql://root@127.0.0.1:${OWN_PORT}/`;
  log(`own MariaDB on port ${OWN_PORT}, buffer pool ${bufferPool}, data in ${dataDir}`);
  return { child, dir };
}

async function main(): Promise<void> {
  const ownDb = BUFFER_POOL ? await startOwnMariaDb(BUFFER_POOL) : undefined;
  try {
    await scale();
  } finally {
    if (ownDb) {
      // Its data (about 10 GB at full size) goes with it.
      const exited = new Promise((resolve) => ownDb.child.once('exit', resolve));
      ownDb.child.kill('SIGTERM');
      await exited;
      rmSync(ownDb.dir, { recursive: true, force: true });
    }
  }
}

async function scale(): Promise<void> {
  const service = await startService();
  const receiver = new Receiver();
  // No beneficiaries through the API: all of them come from the bulk load below.
  const { placeKey } = await seedService(await receiver.listen(), 0);
  const db = await mysql(SERVICE_DB);
  const [[plan]] = (await db.query("SELECT id FROM benefit_plans WHERE code = 'BENCH'")) as unknown as [
    [{ id: number }],
  ];

  const next = { register: POOL };
  async function measure(
    label: string,
    pool = POOL,
    modes: ('validate' | 'register')[] = ['validate', 'register'],
  ): Promise<Record<string, LoadResult>> {
    const out: Record<string, LoadResult> = {};
    for (const mode of modes) {
      const runs: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await settle(db, 'visits');
        const first = mode === 'register' ? next.register : 0;
        // A register's CPF is number `first + n` modulo the pool given: all beneficiaries for registers.
        const range = mode === 'register' ? BENEFICIARIES : pool;
        const warm = await load(BASE, placeKey, mode, WARMUP_SECONDS, first, GYM_CODE, range);
        if (mode === 'register') next.register = warm.last;
        const run = await load(BASE, placeKey, mode, SECONDS, next.register, GYM_CODE, range);
        if (mode === 'register') next.register = run.last;
        runs.push(run);
        log(`${label} ${mode} round ${round + 1}: ${run.rps.toFixed(0)} rps (p99 ${run.p99} ms)`);
      }
      out[mode] = combine(runs);
    }
    return out;
  }

  const smallCount = POOL + REGISTER_RESERVE;
  log(`small: ${smallCount} beneficiaries, no earlier visits`);
  let started = Date.now();
  await loadBeneficiaries(db, 0, smallCount, plan.id);
  const smallLoadSeconds = (Date.now() - started) / 1000;
  const small = await measure('small');

  log(`loading ${BENEFICIARIES - smallCount} more beneficiaries`);
  const beneficiaryLoad = await withoutSecondaryIndexes(
    db,
    'beneficiaries',
    ['IDX_9eabc362579e27ccc462f228cb', 'IDX_beneficiaries_benefit_plan'],
    () => loadBeneficiaries(db, smallCount, BENEFICIARIES, plan.id),
  );
  log(`beneficiaries: ${JSON.stringify(beneficiaryLoad)}`);

  log(`loading ${VISITS} visits over the last year, ${PLACES} places`);
  started = Date.now();
  const visitLoad = await withoutSecondaryIndexes(
    db,
    'visits',
    ['IDX_visits_place_created', 'IDX_visits_beneficiary_created'],
    async () => {
      for (let done = 0; done < VISITS; done += VISIT_CHUNK) {
        const count = Math.min(VISIT_CHUNK, VISITS - done);
        // Beneficiary by row number round-robin (about VISITS / BENEFICIARIES each), one of PLACES places, a
        // time over the last year outside the recent window.
        await db.query(
          `INSERT INTO visits (beneficiary_id, place_id, plan_id, created_at)
           SELECT 1 + ((seq + ?) % ?),
                  CONCAT('00000000-0000-4000-8000-', LPAD((seq + ?) % ?, 12, '0')), NULL,
                  UTC_TIMESTAMP(3) - INTERVAL 2 HOUR - INTERVAL (((seq + ?) * 7919) % 525600) MINUTE
           FROM seq_1_to_${count}`,
          [done, BENEFICIARIES, done, PLACES, done],
        );
        if ((done / VISIT_CHUNK) % 10 === 0) log(`  ${done + count} visits`);
      }
    },
  );
  const loadSeconds = (Date.now() - started) / 1000;
  log(`visits: ${JSON.stringify(visitLoad)}`);
  const visitSizes = await sizes(db, 'visits');
  const beneficiarySizes = await sizes(db, 'beneficiaries');

  const large = await measure('large');
  const cold = await measure('large, validate over every beneficiary', BENEFICIARIES, ['validate']);
  let partitioned:
    { runs: Record<string, LoadResult>; partitionSeconds: number; archive: string } | undefined;
  if (PARTITIONS) {
    log('partitioning visits by month');
    const change = await partitionByMonth(db);
    log(`partitioned in ${change.partitionSeconds.toFixed(0)} s; ${change.archive}`);
    partitioned = { runs: await measure('partitioned'), ...change };
  }
  const final = await drain(receiver, db);
  await db.end();
  receiver.close();
  const memory = memoryOf(service.pid ?? 0);

  const perMillion = (mb: number) => (mb / (visitSizes.rows / 1e6)).toFixed(1);
  const lines = [
    '',
    `scale: ${BENEFICIARIES} beneficiaries, ${visitSizes.rows} visits; mean of ${ROUNDS} rounds of ${SECONDS} s at 32 connections after a ${WARMUP_SECONDS} s warm-up`,
    'route     | small rps  p99 | large rps  p99 | ratio | large, validate over all: rps  p99',
  ];
  const checks: [string, boolean][] = [];
  for (const mode of ['validate', 'register']) {
    const ratio = large[mode].rps / small[mode].rps;
    lines.push(
      `${mode.padEnd(9)} |${fmt(small[mode].rps)} ${fmt(small[mode].p99)} |${fmt(large[mode].rps)} ${fmt(large[mode].p99)} | ${ratio.toFixed(2)}  |${cold[mode] ? `${fmt(cold[mode].rps)} ${fmt(cold[mode].p99)}` : ''}`,
    );
    checks.push([`${mode} at scale ${ratio.toFixed(2)} >= 0.9 of small`, ratio >= 0.9]);
    checks.push([
      `${mode}: no non-2xx (${small[mode].non2xx}/${large[mode].non2xx})`,
      small[mode].non2xx + large[mode].non2xx === 0,
    ]);
  }
  if (partitioned) {
    for (const mode of ['validate', 'register']) {
      const run = partitioned.runs[mode];
      lines.push(
        `${mode.padEnd(9)} | partitioned by month: ${fmt(run.rps)} rps ${fmt(run.p99)} ms p99 | ${(run.rps / large[mode].rps).toFixed(2)} of large`,
      );
    }
    lines.push(
      `partitioning: primary key (id, created_at) and 16 monthly partitions + pmax in ${partitioned.partitionSeconds.toFixed(0)} s; archive: ${partitioned.archive}`,
    );
  }
  // Over every beneficiary, validate also meets those the register runs just checked in: 422 already_used.
  lines.push(
    `validate over every beneficiary: ${cold.validate.non2xx} refusals (beneficiaries registered in this run)`,
  );
  lines.push(
    `load: ${smallCount} beneficiaries ${smallLoadSeconds.toFixed(1)} s; ${BENEFICIARIES - smallCount} more ${beneficiaryLoad.loadSeconds.toFixed(0)} s + indexes ${beneficiaryLoad.indexSeconds.toFixed(0)} s; ${VISITS} visits ${visitLoad.loadSeconds.toFixed(0)} s + indexes ${visitLoad.indexSeconds.toFixed(0)} s (${loadSeconds.toFixed(0)} s, ${(VISITS / loadSeconds).toFixed(0)} visits/s)`,
    `visits: data ${visitSizes.dataMb.toFixed(0)} MB, indexes ${visitSizes.indexMb.toFixed(0)} MB: per million visits ${perMillion(visitSizes.dataMb)} MB data + ${perMillion(visitSizes.indexMb)} MB indexes`,
    `beneficiaries: data ${beneficiarySizes.dataMb.toFixed(0)} MB, indexes ${beneficiarySizes.indexMb.toFixed(0)} MB for ${beneficiarySizes.rows} rows`,
    `webhooks: ${receiver.ids.size} of ${final.events} events delivered, ${receiver.duplicates} duplicates; service peak RSS ${memory.peakMb.toFixed(0)} MB`,
    '',
  );
  checks.push([
    `every event delivered (${receiver.ids.size} of ${final.events})`,
    receiver.ids.size === final.events,
  ]);
  for (const [text, ok] of checks) lines.push(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  console.log(lines.join('\n'));
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

runBench(main);
