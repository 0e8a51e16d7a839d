// `npm run bench`: the check-in routes of this service against the raw reference of ../shared/bench,
// measured in one run on one machine. See README "Performance" for what each figure means.
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Connection, createConnection } from 'mysql2/promise';
import { cpfFromBase } from '../common/domain/cpf';

const ROOT = resolve(__dirname, '..', '..');
const BENCH_DIR = process.env.BENCH_DIR ?? resolve(ROOT, '..', 'shared', 'bench');
const MYSQL = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/');
const POOL = Number(process.env.BENCH_POOL ?? 300_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const HISTORY_VISITS = Number(process.env.BENCH_HISTORY_VISITS ?? 2_000_000);
const REFERENCE_PORT = 3900;
const SERVICE_PORT = 3901;
const SERVICE_DB = 'gym_bench';
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const GYM_CODE = 'GYM1BNCH';
const NODE_PATH = resolve(ROOT, 'node_modules');
/** The flags of `npm run start:prod`. */
const PRODUCTION_NODE_FLAGS = ['--max-old-space-size=192'];

interface LoadResult {
  mode: string;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  last: number;
}

const children: ChildProcess[] = [];

function log(message: string): void {
  console.error(`[bench] ${message}`);
}

function databaseUrl(name: string): string {
  const url = new URL(MYSQL.toString());
  url.pathname = `/${name}`;
  return url.toString();
}

async function run(args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, args, {
    cwd: BENCH_DIR,
    env: { ...process.env, NODE_PATH, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return out;
}

function start(args: string[], env: Record<string, string>, cwd: string): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, NODE_PATH, ...env },
    stdio: 'inherit',
  });
  children.push(child);
  return child;
}

async function waitFor(url: string, accept: (status: number) => boolean): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      if (accept(res.status)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

async function load(
  base: string,
  key: string,
  mode: 'validate' | 'register',
  seconds: number,
  first: number,
  gym: string,
) {
  const out = await run([
    'load.js',
    base,
    key,
    mode,
    String(seconds),
    String(CONNECTIONS),
    String(first),
    String(POOL),
    gym,
  ]);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoadResult;
}

async function admin<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${SERVICE_PORT}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

async function mysql(database?: string) {
  return createConnection({
    host: MYSQL.hostname,
    port: Number(MYSQL.port || 3306),
    user: decodeURIComponent(MYSQL.username),
    password: decodeURIComponent(MYSQL.password),
    database,
  });
}

async function seedService(): Promise<{ placeKey: string; seedSeconds: number }> {
  const partner = await admin<{ id: number }>('/admin/partners', { name: 'Bench chain' });
  const place = await admin<{ id: string; place_api_key: string }>('/admin/places', {
    partner_id: partner.id,
    name: 'Bench gym',
    code: GYM_CODE,
  });
  await admin(`/admin/places/${place.id}/plans`, { name: 'Bench plan', tier: 1 });
  await admin('/admin/benefit-plans', { code: 'BENCH', name: 'Bench', tier: 3, monthly_visit_limit: 30 });
  const started = Date.now();
  for (let offset = 0; offset < POOL; offset += 10_000) {
    const beneficiaries = [];
    for (let i = offset; i < Math.min(POOL, offset + 10_000); i++) {
      beneficiaries.push({ cpf: cpfFromBase(100000000 + i), name: `B${i}`, benefit_plan_code: 'BENCH' });
    }
    const result = await admin<{ created: number; errors: unknown[] }>('/admin/beneficiaries/bulk', {
      beneficiaries,
    });
    if (result.errors.length > 0)
      throw new Error(`bulk import refused rows: ${JSON.stringify(result.errors[0])}`);
  }
  return { placeKey: place.place_api_key, seedSeconds: (Date.now() - started) / 1000 };
}

/**
 * Lets MariaDB finish what a bulk insert leaves behind (statistics, undo to purge, dirty pages) so that the
 * next run measures steady state rather than the insert's aftermath.
 */
async function settle(db: Connection, table: string): Promise<void> {
  await db.query(`ANALYZE TABLE \`${table}\``);
  for (let waited = 0; waited < 120; waited++) {
    const [[row]] = (await db.query("SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'")) as unknown as [
      [{ Value: string }],
    ];
    if (Number(row?.Value ?? 0) < 1000) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  // Writes the table's dirty pages out now instead of during the measurement.
  await db.query(`FLUSH TABLES \`${table}\` FOR EXPORT`);
  await db.query('UNLOCK TABLES');
}

/** The mean of several runs: requests per second and p50 averaged, the worst p99, every non-2xx counted. */
function combine(runs: LoadResult[]): LoadResult {
  const mean = (pick: (run: LoadResult) => number) =>
    runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  const sum = (pick: (run: LoadResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return {
    mode: runs[0].mode,
    rps: mean((run) => run.rps),
    p50: mean((run) => run.p50),
    p99: Math.max(...runs.map((run) => run.p99)),
    ok: sum((run) => run.ok),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    last: runs[runs.length - 1].last,
  };
}

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8);

async function main(): Promise<void> {
  if (!existsSync(resolve(BENCH_DIR, 'baseline.js'))) throw new Error(`No reference bench at ${BENCH_DIR}`);

  log(`seeding the reference with ${POOL} beneficiaries`);
  await run(['baseline.js', 'seed', String(POOL)], { BASELINE_DATABASE_URL: databaseUrl('baseline') });
  const reference = start(
    ['baseline.js', 'serve', String(REFERENCE_PORT)],
    { BASELINE_DATABASE_URL: databaseUrl('baseline') },
    BENCH_DIR,
  );

  const admin0 = await mysql();
  await admin0.query(`DROP DATABASE IF EXISTS \`${SERVICE_DB}\``);
  await admin0.end();
  const service = start(
    [...PRODUCTION_NODE_FLAGS, resolve(ROOT, 'dist', 'main.js')],
    {
      NODE_ENV: 'production',
      PORT: String(SERVICE_PORT),
      DATABASE_URL: databaseUrl(SERVICE_DB),
      QUEUE_PREFIX: 'gymbench',
      JWT_SECRET: 'bench-jwt-secret-0123456789',
      ADMIN_API_TOKEN: ADMIN_TOKEN,
      KEY_ENCRYPTION_SECRET: 'bench-key-secret-0123456789',
      MEMBER_API_TOKEN: 'bench-member-token-0123456789',
      PUBLIC_BASE_URL: `https://127.0.0.1:${SERVICE_PORT}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
    ROOT,
  );
  await waitFor(`http://127.0.0.1:${REFERENCE_PORT}/v1/track_usages/validate`, (s) => s === 401);
  await waitFor(`http://127.0.0.1:${SERVICE_PORT}/v1/track_usages/validate`, (s) => s === 401);

  log(`seeding the service with ${POOL} beneficiaries through its bulk import`);
  const { placeKey, seedSeconds } = await seedService();
  log(`bulk import: ${POOL} rows in ${seedSeconds.toFixed(1)} s`);

  const refBase = `http://127.0.0.1:${REFERENCE_PORT}`;
  const svcBase = `http://127.0.0.1:${SERVICE_PORT}`;
  const next = { ref: 0, svc: 0 };
  const targets = {
    ref: { base: refBase, key: 'place-key-1', gym: 'GYM1', db: 'baseline', table: 'track_usages' },
    svc: { base: svcBase, key: placeKey, gym: GYM_CODE, db: SERVICE_DB, table: 'visits' },
  };
  /** One warm-up and one measured run of `mode` against `who`, starting from a settled database. */
  async function measure(who: 'ref' | 'svc', mode: 'validate' | 'register'): Promise<LoadResult> {
    const target = targets[who];
    const db = await mysql(target.db);
    await settle(db, target.table);
    await db.end();
    const warm = await load(target.base, target.key, mode, WARMUP_SECONDS, next[who], target.gym);
    if (mode === 'register') next[who] = warm.last;
    const result = await load(target.base, target.key, mode, SECONDS, next[who], target.gym);
    if (mode === 'register') next[who] = result.last;
    return result;
  }
  const results: Record<string, { ref: LoadResult; svc: LoadResult }> = {};
  const rounds: string[] = [];
  for (const mode of ['validate', 'register'] as const) {
    log(
      `${mode}: ${ROUNDS} rounds of a ${WARMUP_SECONDS} s warm-up and ${SECONDS} s at ${CONNECTIONS} connections, reference and service in turn`,
    );
    const runs: { ref: LoadResult[]; svc: LoadResult[] } = { ref: [], svc: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so that neither always inherits the other's leftovers.
      const order: ('ref' | 'svc')[] = round % 2 === 0 ? ['ref', 'svc'] : ['svc', 'ref'];
      for (const who of order) runs[who].push(await measure(who, mode));
      rounds.push(
        `  ${mode} round ${round + 1}: reference ${runs.ref[round].rps.toFixed(0)} rps, service ${runs.svc[round].rps.toFixed(0)} rps`,
      );
    }
    results[mode] = { ref: combine(runs.ref), svc: combine(runs.svc) };
  }

  log('register with an empty visits table, then with earlier visits in it');
  const db = await mysql(SERVICE_DB);
  await db.query('SET FOREIGN_KEY_CHECKS = 0');
  await db.query('TRUNCATE TABLE visits');
  await db.query('SET FOREIGN_KEY_CHECKS = 1');
  await settle(db, 'visits');
  await load(svcBase, placeKey, 'register', WARMUP_SECONDS, next.svc, GYM_CODE).then(
    (r) => (next.svc = r.last),
  );
  const empty = await load(svcBase, placeKey, 'register', SECONDS, next.svc, GYM_CODE);
  next.svc = empty.last;
  const [[ids]] = (await db.query(
    'SELECT MIN(id) AS low, MAX(id) AS high FROM beneficiaries',
  )) as unknown as [[{ low: number; high: number }]];
  const [[place]] = (await db.query('SELECT id FROM places WHERE code = ?', [GYM_CODE])) as unknown as [
    [{ id: string }],
  ];
  const span = ids.high - ids.low + 1;
  // Spread over the last year (this month included, the recent window not), about 7 per beneficiary.
  for (let done = 0; done < HISTORY_VISITS; done += 250_000) {
    const count = Math.min(250_000, HISTORY_VISITS - done);
    await db.query(
      `INSERT INTO visits (beneficiary_id, place_id, plan_id, created_at)
       SELECT ? + ((seq + ?) % ?), ?, NULL,
              UTC_TIMESTAMP(3) - INTERVAL 2 HOUR - INTERVAL (((seq + ?) * 7919) % 525600) MINUTE
       FROM seq_1_to_${count}`,
      [ids.low, done, span, place.id, done],
    );
  }
  await settle(db, 'visits');
  await db.end();
  await load(svcBase, placeKey, 'register', WARMUP_SECONDS, next.svc, GYM_CODE).then(
    (r) => (next.svc = r.last),
  );
  const full = await load(svcBase, placeKey, 'register', SECONDS, next.svc, GYM_CODE);
  const memory = memoryOf(service.pid ?? 0);

  const lines: string[] = [];
  lines.push('');
  lines.push(
    `check-in throughput, mean of ${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections after a ${WARMUP_SECONDS} s warm-up, ${POOL} beneficiaries (p99: the worst round)`,
  );
  lines.push(
    'route     |  ref rps  ref p50  ref p99 |  svc rps  svc p50  svc p99 | ratio | non-2xx (ref/svc)',
  );
  const checks: [string, boolean][] = [];
  for (const [mode, { ref, svc }] of Object.entries(results)) {
    const ratio = svc.rps / ref.rps;
    lines.push(
      `${mode.padEnd(9)} |${fmt(ref.rps)} ${fmt(ref.p50, 1)} ${fmt(ref.p99, 1)} |${fmt(svc.rps)} ${fmt(svc.p50, 1)} ${fmt(
        svc.p99,
        1,
      )} | ${ratio.toFixed(2)}  | ${ref.non2xx}/${svc.non2xx}`,
    );
    checks.push([`${mode}: ratio ${ratio.toFixed(2)} >= 0.8`, ratio >= 0.8]);
    checks.push([`${mode}: p99 ${svc.p99} ms <= 2 x ${ref.p99} ms`, svc.p99 <= 2 * ref.p99]);
    checks.push([
      `${mode}: no non-2xx answer from the service (${svc.non2xx}, errors ${svc.errors})`,
      svc.non2xx === 0 && svc.errors === 0,
    ]);
  }
  lines.push(...rounds);
  lines.push('');
  lines.push(
    `service resident memory at the end: ${memory.rssMb.toFixed(0)} MB (peak ${memory.peakMb.toFixed(0)} MB)`,
  );
  checks.push([`peak resident memory ${memory.peakMb.toFixed(0)} MB <= 300 MB`, memory.peakMb <= 300]);
  const historyRatio = full.rps / empty.rps;
  lines.push(
    `register with an empty visits table: ${empty.rps.toFixed(0)} rps (p99 ${empty.p99} ms); with ${HISTORY_VISITS} earlier visits: ${full.rps.toFixed(0)} rps (p99 ${full.p99} ms); ratio ${historyRatio.toFixed(2)}`,
  );
  checks.push([
    `register with ${HISTORY_VISITS} earlier visits at ${historyRatio.toFixed(2)} >= 0.9 of empty`,
    historyRatio >= 0.9,
  ]);
  checks.push([
    `history runs without non-2xx (${empty.non2xx}/${full.non2xx})`,
    empty.non2xx === 0 && full.non2xx === 0,
  ]);
  lines.push(
    `bulk import of ${POOL} beneficiaries: ${seedSeconds.toFixed(1)} s (${(POOL / seedSeconds).toFixed(0)} rows/s)`,
  );
  lines.push('');
  for (const [text, ok] of checks) lines.push(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  console.log(lines.join('\n'));
  reference.kill();
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) child.kill('SIGTERM');
  });
