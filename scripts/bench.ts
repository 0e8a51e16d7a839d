// `npm run bench`: the check-in routes of this service against the raw reference of ../shared/bench,
// measured in one run on one machine. See README "Performance" for what each figure means.
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Connection, createConnection } from 'mysql2/promise';
import { cpfFromBase } from '../src/common/domain/cpf';
import { CpuMeter, serverPids } from './process-cpu';

export const ROOT = resolve(__dirname, '..');
/** The reference: ../shared/bench beside the checkout (one level further up from a worktree in wt/). */
export const BENCH_DIR =
  process.env.BENCH_DIR ??
  [resolve(ROOT, '..', 'shared', 'bench'), resolve(ROOT, '..', '..', 'shared', 'bench')].find((dir) =>
    existsSync(resolve(dir, 'baseline.js')),
  ) ??
  resolve(ROOT, '..', 'shared', 'bench');
/** The MariaDB server of the bench's databases (read when used: bench:scale may start one of its own). */
const mysqlServer = () => new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/');
export const POOL = Number(process.env.BENCH_POOL ?? 300_000);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** The warm-up of the register beside each member check-in run, and the length of its parts (see `interleaved`). */
const BESIDE_WARMUP_SECONDS = 3;
const BESIDE_PART_SECONDS = 2;
/** How many parts each member check-in run is cut into, between registers (see `interleaved`). */
const INTERLEAVED_PARTS = 4;
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const HISTORY_VISITS = Number(process.env.BENCH_HISTORY_VISITS ?? 2_000_000);
export const REFERENCE_PORT = 3900;
const REFERENCE_HOOK_PATH = '/reference-hooks';
// BENCH_SERVICE_PORT, BENCH_DATABASE: a second bench (bench:scale) can run beside this one on its own.
export const SERVICE_PORT = Number(process.env.BENCH_SERVICE_PORT ?? 3901);
export const SERVICE_DB = process.env.BENCH_DATABASE ?? 'gym_bench';
export const ADMIN_TOKEN = 'bench-admin-token-0123456789';
export const GYM_CODE = 'GYM1BNCH';
/** The service's KEY_ENCRYPTION_SECRET in the benches (a bench that seeds its database seals with it). */
export const BENCH_KEY_SECRET = 'bench-key-secret-0123456789';
const MEMBER_CHECK_INS = Number(process.env.BENCH_MEMBER_CHECK_INS ?? 16000);
export const DRAIN_SECONDS = Number(process.env.BENCH_DRAIN_SECONDS ?? 180);
const NODE_PATH = resolve(ROOT, 'node_modules');
export const MEMBER_TOKEN = 'bench-member-token-0123456789';
/** The flags of `npm run start:prod`, plus any the caller adds (e.g. `--cpu-prof --cpu-prof-dir=...`). */
const PRODUCTION_NODE_FLAGS = [
  '--max-old-space-size=192',
  '--heap-growing-percent=100',
  '--no-allocation-site-pretenuring',
  ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
];

export interface LoadResult {
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

/**
 * The gym's webhook receiver: answers 204 at once, counts deliveries by `webhook-id` (so duplicates show),
 * and keeps the confirmation endpoint of each member check-in's CHECK_IN_CREATED.
 */
export class Receiver {
  readonly ids = new Set<string>();
  deliveries = 0;
  /** The reference's deliveries (path REFERENCE_HOOK_PATH), by its `webhook-id`. */
  readonly referenceIds = new Set<string>();
  readonly endpoints = new Map<string, string>();
  private server?: Server;
  private port = 0;
  /** Waiters of `reached`, each called after every delivery until it answers true. */
  private readonly waiters = new Set<() => boolean>();

  /**
   * Resolves once `done()` holds, checked at once and after each delivery, or after `seconds`: a drain ends with
   * the delivery that completes it, not at a polling tick.
   */
  reached(done: () => boolean, seconds: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        resolve();
      }, seconds * 1000);
      const waiter = () => {
        if (!done()) return false;
        clearTimeout(timer);
        resolve();
        return true;
      };
      this.waiters.add(waiter);
    });
  }

  private delivered(): void {
    for (const waiter of this.waiters) if (waiter()) this.waiters.delete(waiter);
  }

  get duplicates(): number {
    return this.deliveries - this.ids.size;
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === REFERENCE_HOOK_PATH) {
          this.referenceIds.add(String(req.headers['webhook-id']));
          res.writeHead(204).end();
          this.delivered();
          return;
        }
        this.deliveries++;
        this.ids.add(String(req.headers['webhook-id']));
        const body = Buffer.concat(chunks).toString();
        if (body.includes('"endpoint"')) {
          const event = JSON.parse(body) as { endpoint: string; check_in: { id: string } };
          this.endpoints.set(event.check_in.id, new URL(event.endpoint).pathname);
        }
        res.writeHead(204).end();
        this.delivered();
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
    return this.url;
  }

  /** Where the service delivers (what listen answered). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Where the reference delivers (its BASELINE_WEBHOOK_URL): the same receiver, on a path of its own. */
  get referenceUrl(): string {
    return `http://127.0.0.1:${this.port}${REFERENCE_HOOK_PATH}`;
  }

  close(): void {
    this.server?.close();
  }
}

export function log(message: string): void {
  console.error(`[bench] ${message}`);
}

export function databaseUrl(name: string): string {
  const url = mysqlServer();
  url.pathname = `/${name}`;
  return url.toString();
}

export async function run(args: string[], env: Record<string, string> = {}): Promise<string> {
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

export function start(args: string[], env: Record<string, string>, cwd: string): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, NODE_PATH, ...env },
    stdio: 'inherit',
  });
  children.push(child);
  return child;
}

/** Stops a child the bench started (SIGTERM) and waits until it has exited. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** A build to run: its label, its main.js, and node flags of its own (after the production ones). */
export interface Build {
  label: string;
  path: string;
  flags?: string[];
}

/**
 * The builds named in `spec` ("label=path/to/main.js,..."; by default this checkout's dist/main.js). A path may
 * be followed by node flags for that build alone: "default=dist/main.js,semi64=dist/main.js --max-semi-space-size=64".
 */
export function buildsOf(spec: string | undefined): Build[] {
  return (spec ?? `current=${resolve(ROOT, 'dist', 'main.js')}`).split(',').map((entry) => {
    const at = entry.indexOf('=');
    const [path, ...flags] = entry
      .slice(at + 1)
      .trim()
      .split(/\s+/);
    return { label: entry.slice(0, at), path: resolve(path), flags };
  });
}

/**
 * Each build's database and place key. With `own`, each build on a database of its own (`<SERVICE_DB>_<tag><n>`),
 * seeded by that build, so that each runs on the schema its own migrations give; otherwise all share the first
 * build's, which a newer build's migrations then change for every build.
 */
export async function seedBuilds(
  builds: Build[],
  receiverUrl: string,
  pool: number,
  own: { own: boolean; tag: string },
): Promise<{ databases: Map<string, string>; placeKeys: Map<string, string> }> {
  const databases = new Map(
    builds.map(({ label }, index) => [label, own.own ? `${SERVICE_DB}_${own.tag}${index + 1}` : SERVICE_DB]),
  );
  const placeKeys = new Map<string, string>();
  for (const build of own.own ? builds : builds.slice(0, 1)) {
    const service = await startService(build.path, true, databases.get(build.label), build.flags);
    log(`seeding ${own.own ? `${build.label}'s` : 'the'} database with ${pool} beneficiaries`);
    const { placeKey } = await seedService(receiverUrl, pool);
    for (const { label } of own.own ? [build] : builds) placeKeys.set(label, placeKey);
    await stop(service);
  }
  return { databases, placeKeys };
}

/** The events in the builds' databases other than `database`: the receiver counts every build's. */
export async function eventsElsewhere(databases: Iterable<string>, database: string): Promise<number> {
  let events = 0;
  for (const other of new Set(databases)) {
    if (other === database) continue;
    const db = await mysql(other);
    const [[row]] = (await db.query('SELECT COUNT(*) AS n FROM webhook_deliveries')) as unknown as [
      [{ n: number }],
    ];
    events += Number(row.n);
    await db.end();
  }
  return events;
}

export async function waitFor(url: string, accept: (status: number) => boolean): Promise<void> {
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

export async function load(
  base: string,
  key: string,
  mode: 'validate' | 'register',
  seconds: number,
  first: number,
  gym: string,
  pool = POOL,
) {
  const out = await run([
    'load.js',
    base,
    key,
    mode,
    String(seconds),
    String(CONNECTIONS),
    String(first),
    String(pool),
    gym,
  ]);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoadResult;
}

export async function admin<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${SERVICE_PORT}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

export async function mysql(database?: string) {
  const MYSQL = mysqlServer();
  return createConnection({
    host: MYSQL.hostname,
    port: Number(MYSQL.port || 3306),
    user: decodeURIComponent(MYSQL.username),
    password: decodeURIComponent(MYSQL.password),
    database,
  });
}

export async function post<T>(path: string, body: unknown, headers: Record<string, string>): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${SERVICE_PORT}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

export async function seedService(
  receiverUrl: string,
  beneficiaryCount = POOL,
): Promise<{ placeKey: string; placeId: string; seedSeconds: number }> {
  const partner = await admin<{ id: number; partner_api_key: string }>('/admin/partners', {
    name: 'Bench chain',
  });
  const place = await admin<{ id: string; place_api_key: string }>('/admin/places', {
    partner_id: partner.id,
    name: 'Bench gym',
    code: GYM_CODE,
  });
  // The gym listens for CHECKIN events, as a gym in production does: every register writes an event.
  const { token } = await post<{ token: string }>(
    '/partner/auth',
    { place_api_key: place.place_api_key, partner_api_key: partner.partner_api_key },
    {},
  );
  // BENCH_UNSUBSCRIBED=1 (analysis only, never a target run): the same gym without its subscription, to
  // see what the events and their deliveries cost.
  if (process.env.BENCH_UNSUBSCRIBED !== '1')
    await post(
      '/partner/webhook/create',
      { webhook_url: receiverUrl, webhook_type: 'CHECKIN' },
      { authorization: `Bearer ${token}` },
    );
  await admin(`/admin/places/${place.id}/plans`, { name: 'Bench plan', tier: 1 });
  await admin('/admin/benefit-plans', { code: 'BENCH', name: 'Bench', tier: 3, monthly_visit_limit: 30 });
  const started = Date.now();
  for (let offset = 0; offset < beneficiaryCount; offset += 10_000) {
    const beneficiaries = [];
    for (let i = offset; i < Math.min(beneficiaryCount, offset + 10_000); i++) {
      beneficiaries.push({ cpf: cpfFromBase(100000000 + i), name: `B${i}`, benefit_plan_code: 'BENCH' });
    }
    const result = await admin<{ created: number; errors: unknown[] }>('/admin/beneficiaries/bulk', {
      beneficiaries,
    });
    if (result.errors.length > 0)
      throw new Error(`bulk import refused rows: ${JSON.stringify(result.errors[0])}`);
  }
  return { placeKey: place.place_api_key, placeId: place.id, seedSeconds: (Date.now() - started) / 1000 };
}

/**
 * Lets MariaDB finish what a bulk insert leaves behind (statistics, undo to purge, dirty pages) so that the
 * next run measures steady state rather than the insert's aftermath.
 */
export async function settle(db: Connection, table: string): Promise<void> {
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
export function combine(runs: LoadResult[]): LoadResult {
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

export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

export const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8);

/** Runs `requests` once through bench-load.ts (autocannon); with `collect`, also answers every response. */
export async function loadList(
  requests: { path: string; body?: string }[],
  headers: Record<string, string>,
  collect = false,
): Promise<{ result: LoadResult; answers: { status: number; body: string }[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'gym-bench-'));
  const file = join(dir, 'spec.json');
  writeFileSync(
    file,
    JSON.stringify({
      benchDir: BENCH_DIR,
      base: `http://127.0.0.1:${SERVICE_PORT}`,
      connections: CONNECTIONS,
      headers: { 'content-type': 'application/json', ...headers },
      requests,
      collect,
    }),
  );
  // Run from the reference's folder (its autocannon), compiled with this repository's tsconfig.
  const out = await run(
    ['-r', require.resolve('ts-node/register/transpile-only'), resolve(__dirname, 'bench-load.ts'), file],
    { TS_NODE_PROJECT: resolve(ROOT, 'tsconfig.json') },
  );
  const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoadResult;
  const answers = collect
    ? (JSON.parse(readFileSync(`${file}.out`, 'utf8')) as { status: number; body: string }[])
    : [];
  return { result, answers };
}

/** Waits until the receiver has every event the service wrote; answers how long that took. */
export async function drain(
  receiver: Receiver,
  db: Connection,
  /** Events the receiver had before from elsewhere (another build's database, in bench:ab). */
  elsewhere = 0,
): Promise<{ events: number; seconds: number }> {
  return drainTo(receiver.ids, receiver, db, 'webhook_deliveries', elsewhere);
}

/** Waits until the receiver has every outbox row the reference wrote; answers how long that took. */
export async function drainReference(
  receiver: Receiver,
  db: Connection,
): Promise<{ events: number; seconds: number }> {
  return drainTo(receiver.referenceIds, receiver, db, 'outbox');
}

/**
 * Waits until `received` holds as many ids as `table` has rows (plus `elsewhere`); answers how long that took.
 * Called once every request of a run has its answer, so every row is committed: the table is counted once, and
 * the wait ends with the delivery that completes it. (A poll of COUNT(*) every few hundred ms added up to its
 * interval to every drain, more of a short run than of a long one, and scanned the table while it was measured.)
 */
async function drainTo(
  received: Set<string>,
  receiver: Receiver,
  db: Connection,
  table: 'webhook_deliveries' | 'outbox',
  elsewhere = 0,
): Promise<{ events: number; seconds: number }> {
  const started = Date.now();
  const [[row]] = (await db.query(`SELECT COUNT(*) AS n FROM ${table}`)) as unknown as [[{ n: number }]];
  const events = Number(row.n) + elsewhere;
  await receiver.reached(() => received.size >= events, DRAIN_SECONDS);
  return { events, seconds: (Date.now() - started) / 1000 };
}

/** A run's answers, and the seconds it ran: its answers over its rate. */
function ranFor(result: LoadResult): { answers: number; seconds: number } {
  const answers = result.ok + result.non2xx;
  return { answers, seconds: answers / Math.max(result.rps, 1) };
}

/**
 * Register throughput counted only once its events are at the receiver: answers over (run time + time until
 * every event of the run has arrived), so that a backlog left for later never counts as speed.
 */
export function sustainedRps(result: LoadResult, seconds: number, drainSeconds: number): number {
  return (result.rps * seconds) / (seconds + drainSeconds);
}

/**
 * Runs `requests` as a warm-up (the first fifth, not measured, as validate and register get 5 s) and then the
 * rest, measured; the deliveries each part causes drain before the next part runs, so that no run is measured
 * beside the previous one's backlog.
 */
async function warmedLoadList(
  requests: { path: string; body?: string }[],
  headers: Record<string, string>,
  drained: () => Promise<{ seconds: number }>,
  collect = false,
): Promise<{ result: LoadResult; sustained: number; answers: { status: number; body: string }[] }> {
  const warm = Math.floor(requests.length / 5);
  const warmUp = await loadList(requests.slice(0, warm), headers, collect);
  await drained();
  const measured = await loadList(requests.slice(warm), headers, collect);
  const { seconds: drainSeconds } = await drained();
  const { seconds: runSeconds } = ranFor(measured.result);
  // Throughput and latency of the measured part; every answer of both parts counts for the non-2xx check.
  const both = (key: 'ok' | 'non2xx' | 'errors' | 'timeouts') => warmUp.result[key] + measured.result[key];
  return {
    result: {
      ...measured.result,
      ok: both('ok'),
      non2xx: both('non2xx'),
      errors: both('errors'),
      timeouts: both('timeouts'),
    },
    sustained: sustainedRps(measured.result, runSeconds, drainSeconds),
    answers: [...warmUp.answers, ...measured.answers],
  };
}

/** The service's register beside a member check-in run: a warm-up, and one measured part (see `interleaved`). */
export interface RegisterBeside {
  warmUp(): Promise<void>;
  /** A register of BESIDE_PART_SECONDS, drained: its answers and its run and drain time. */
  part(): Promise<{ answers: number; seconds: number }>;
}

/**
 * A measured run interleaved with the service's own register, each compared with the other: after a warm-up of
 * the run (its first fifth) and of the register, the run's other requests go in INTERLEAVED_PARTS parts, each
 * between two registers of BESIDE_PART_SECONDS (INTERLEAVED_PARTS + 1 of them); every part's deliveries are
 * drained before the next. Each side's sustained rate is its answers over its run and drain time summed, so
 * that the machine, which moves by a third between minutes when it is shared with others, moves both sides
 * alike (a run between two registers minutes apart moved by a fifth from one bench to the next). Latency: the
 * parts' p50 averaged, the worst p99.
 */
async function interleaved(
  requests: { path: string; body?: string }[],
  headers: Record<string, string>,
  drained: () => Promise<{ seconds: number }>,
  beside: RegisterBeside,
  collect = false,
): Promise<{
  result: LoadResult;
  sustained: number;
  besideRegister: number;
  answers: { status: number; body: string }[];
}> {
  const warm = Math.floor(requests.length / 5);
  const warmUp = await loadList(requests.slice(0, warm), headers, collect);
  await drained();
  await beside.warmUp();
  const rest = requests.slice(warm);
  const size = Math.ceil(rest.length / INTERLEAVED_PARTS);
  const parts: LoadResult[] = [];
  const answers = [...warmUp.answers];
  const run = { answers: 0, seconds: 0, runSeconds: 0 };
  const register = { answers: 0, seconds: 0 };
  const besidePart = async () => {
    const part = await beside.part();
    register.answers += part.answers;
    register.seconds += part.seconds;
  };
  for (let at = 0; at < rest.length; at += size) {
    await besidePart();
    const part = await loadList(rest.slice(at, at + size), headers, collect);
    const { seconds: drainSeconds } = await drained();
    const { answers: partAnswers, seconds: runSeconds } = ranFor(part.result);
    run.answers += partAnswers;
    run.runSeconds += runSeconds;
    run.seconds += runSeconds + drainSeconds;
    parts.push(part.result);
    answers.push(...part.answers);
  }
  await besidePart();
  // Every answer of the warm-up and the parts counts for the non-2xx check.
  const sum = (key: 'ok' | 'non2xx' | 'errors' | 'timeouts') =>
    [warmUp.result, ...parts].reduce((total, each) => total + each[key], 0);
  return {
    result: {
      mode: parts[0]?.mode ?? warmUp.result.mode,
      rps: run.answers / Math.max(run.runSeconds, 1e-9),
      p50: parts.reduce((total, each) => total + each.p50, 0) / Math.max(parts.length, 1),
      p99: Math.max(...parts.map((each) => each.p99)),
      ok: sum('ok'),
      non2xx: sum('non2xx'),
      errors: sum('errors'),
      timeouts: sum('timeouts'),
      last: parts[parts.length - 1]?.last ?? warmUp.result.last,
    },
    sustained: run.answers / Math.max(run.seconds, 1e-9),
    besideRegister: register.answers / Math.max(register.seconds, 1e-9),
    answers,
  };
}

/**
 * Member check-ins at the bench gym for beneficiaries no register used (the top of the pool): created through
 * the member API, then half confirmed at the endpoint of their CHECK_IN_CREATED, half by token at the desk.
 */
async function memberCheckIns(
  receiver: Receiver,
  placeKey: string,
  drained: () => Promise<{ seconds: number }>,
  beside: RegisterBeside,
) {
  const creations = Array.from({ length: MEMBER_CHECK_INS }, (_, i) => ({
    path: '/member/v1/check_ins',
    body: JSON.stringify({
      type: 'cpf',
      identifier: cpfFromBase(100000000 + POOL - 1 - i),
      service_provider_code: GYM_CODE,
    }),
  }));
  const created = await interleaved(
    creations,
    { authorization: `Bearer ${MEMBER_TOKEN}` },
    drained,
    beside,
    true,
  );
  const checkIns = createdCheckIns(created.answers);
  const half = Math.floor(checkIns.length / 2);
  const byEndpoint = await confirmationsAtEndpoint(receiver, checkIns.slice(0, half));
  const endpoint = await interleaved(byEndpoint, {}, drained, beside);
  const byToken = checkIns.slice(half).map((checkIn) => ({
    path: '/v1/track_usages',
    body: JSON.stringify({
      data: {
        type: 'track_usage',
        attributes: { type: 'token', identifier: checkIn.token, service_provider_code: GYM_CODE },
      },
    }),
  }));
  const token = await interleaved(byToken, { 'x-api-key': placeKey }, drained, beside);
  return {
    created,
    endpoint,
    token,
    withoutEndpoint: half - byEndpoint.length,
  };
}

/** The member check-ins of the creations' 201 answers. */
function createdCheckIns(
  answers: { status: number; body: string }[],
): { id: string; token: string; member_number: string }[] {
  return answers.filter((answer) => answer.status === 201).map((answer) => JSON.parse(answer.body));
}

/**
 * The confirmations at the endpoints of `checkIns`, which arrive with their CHECK_IN_CREATED deliveries (waited
 * for); a check-in whose endpoint never arrived is left out (the bench's check counts them).
 */
async function confirmationsAtEndpoint(receiver: Receiver, checkIns: { id: string }[]) {
  for (let waited = 0; waited < DRAIN_SECONDS * 4; waited++) {
    if (checkIns.every((checkIn) => receiver.endpoints.has(checkIn.id))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return checkIns
    .filter((checkIn) => receiver.endpoints.has(checkIn.id))
    .map((checkIn) => ({ path: receiver.endpoints.get(checkIn.id) as string }));
}

/**
 * Subscribes the bench gym in the Wellhub format too (`checkin` to `receiverUrl`), through that platform's route
 * with the place key as bearer; answers the gym's gym_id.
 */
export async function subscribeWellhubFormat(receiverUrl: string, placeKey: string): Promise<string> {
  const auth = { authorization: `Bearer ${placeKey}` };
  const { gyms } = await (
    await fetch(`http://127.0.0.1:${SERVICE_PORT}/v1/systems/gyms`, { headers: auth })
  ).json();
  const gymId = String((gyms as { id: number }[])[0].id);
  const subscribed = await fetch(`http://127.0.0.1:${SERVICE_PORT}/v1/systems/gyms/${gymId}/webhooks`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      webhooks: [{ event: 'checkin', url: receiverUrl, secret: 'bench-wellhub-secret' }],
    }),
  });
  if (subscribed.status !== 204) throw new Error(`Wellhub-format subscription refused: ${subscribed.status}`);
  return gymId;
}

/**
 * Wellhub-compatible validation (POST /access/v1/validate) at the bench gym, subscribed in that format too,
 * measured against the confirmation at the endpoint it is held to, interleaved with it: member check-ins made
 * through the member API for beneficiaries no other run used (below those of memberCheckIns), MEMBER_CHECK_INS / 2
 * validated by member number with the place key as bearer and X-Gym-Id, and a quarter more confirmed at their
 * endpoint; after a warm-up of each (its first fifth), the validations go in INTERLEAVED_PARTS parts, each between
 * two parts of the confirmations (INTERLEAVED_PARTS + 1 of them, of the same size), every part drained before the
 * next (see `interleaved`). Each side's sustained rate is its answers over its run and drain time summed.
 */
async function wellhubValidations(
  receiver: Receiver,
  placeKey: string,
  drained: () => Promise<{ seconds: number }>,
): Promise<{
  validated: LoadResult;
  sustained: number;
  endpoint: number;
  endpointFailed: number;
  withoutEndpoint: number;
  created: number;
}> {
  const gymId = await subscribeWellhubFormat(receiver.url, placeKey);
  const validations = Math.floor(MEMBER_CHECK_INS / 2);
  // The confirmations' warm-up and INTERLEAVED_PARTS + 1 parts, each of the size of a part of the validations.
  const confirmations = Math.round((validations * (INTERLEAVED_PARTS + 1)) / INTERLEAVED_PARTS);
  const creations = Array.from({ length: validations + confirmations }, (_, i) => ({
    path: '/member/v1/check_ins',
    body: JSON.stringify({
      type: 'cpf',
      identifier: cpfFromBase(100000000 + POOL - 1 - MEMBER_CHECK_INS - i),
      service_provider_code: GYM_CODE,
    }),
  }));
  const created = createdCheckIns(
    (await warmedLoadList(creations, { authorization: `Bearer ${MEMBER_TOKEN}` }, drained, true)).answers,
  );
  const byMemberNumber = created.slice(0, validations).map((checkIn) => ({
    path: '/access/v1/validate',
    body: JSON.stringify({ gympass_id: checkIn.member_number }),
  }));
  const byEndpoint = await confirmationsAtEndpoint(receiver, created.slice(validations));
  const warm = Math.floor(byEndpoint.length / 5);
  const size = Math.ceil((byEndpoint.length - warm) / (INTERLEAVED_PARTS + 1));
  let at = warm;
  let failed = 0;
  const endpointBeside: RegisterBeside = {
    async warmUp() {
      const { result } = await loadList(byEndpoint.slice(0, warm), {});
      failed += result.non2xx + result.errors;
      await drained();
    },
    async part() {
      const part = await loadList(byEndpoint.slice(at, (at += size)), {});
      failed += part.result.non2xx + part.result.errors;
      const { seconds: drainSeconds } = await drained();
      const { answers, seconds } = ranFor(part.result);
      return { answers, seconds: seconds + drainSeconds };
    },
  };
  const validated = await interleaved(
    byMemberNumber,
    { authorization: `Bearer ${placeKey}`, 'x-gym-id': gymId },
    drained,
    endpointBeside,
  );
  return {
    validated: validated.result,
    sustained: validated.sustained,
    endpoint: validated.besideRegister,
    endpointFailed: failed,
    withoutEndpoint: created.length - validations - byEndpoint.length,
    created: byMemberNumber.length,
  };
}

/**
 * The service as `start:prod` runs it, on a fresh database of its own (`fresh` false: on the one there);
 * resolves once it listens. `main`: another build's main.js.
 */
export async function startService(
  main = process.env.BENCH_SERVICE_MAIN ?? resolve(ROOT, 'dist', 'main.js'),
  fresh = true,
  database = SERVICE_DB,
  flags: string[] = [],
): Promise<ChildProcess> {
  if (fresh) {
    const admin0 = await mysql();
    await admin0.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin0.end();
  }
  const service = start(
    // BENCH_SERVICE_MAIN: another build of the service (an A/B comparison against a copy of an older dist/).
    [...PRODUCTION_NODE_FLAGS, ...flags, main],
    {
      NODE_ENV: 'production',
      PORT: String(SERVICE_PORT),
      DATABASE_URL: databaseUrl(database),
      QUEUE_PREFIX: database,
      JWT_SECRET: 'bench-jwt-secret-0123456789',
      ADMIN_API_TOKEN: ADMIN_TOKEN,
      KEY_ENCRYPTION_SECRET: BENCH_KEY_SECRET,
      MEMBER_API_TOKEN: MEMBER_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      PUBLIC_BASE_URL: `https://127.0.0.1:${SERVICE_PORT}`,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
    ROOT,
  );
  await waitFor(`http://127.0.0.1:${SERVICE_PORT}/v1/track_usages/validate`, (s) => s === 401);
  return service;
}

/**
 * The reference, seeded with `pool` beneficiaries; resolves once it answers. With `webhookUrl` it delivers
 * every outbox row there as it serves (BASELINE_WEBHOOK_URL): the reference for a subscribed gym.
 */
export async function startReference(pool = POOL, webhookUrl?: string): Promise<ChildProcess> {
  if (!existsSync(resolve(BENCH_DIR, 'baseline.js'))) throw new Error(`No reference bench at ${BENCH_DIR}`);
  log(`seeding the reference with ${pool} beneficiaries`);
  await run(['baseline.js', 'seed', String(pool)], { BASELINE_DATABASE_URL: databaseUrl('baseline') });
  const reference = start(
    ['baseline.js', 'serve', String(REFERENCE_PORT)],
    {
      BASELINE_DATABASE_URL: databaseUrl('baseline'),
      ...(webhookUrl !== undefined && { BASELINE_WEBHOOK_URL: webhookUrl }),
    },
    BENCH_DIR,
  );
  await waitFor(`http://127.0.0.1:${REFERENCE_PORT}/v1/track_usages/validate`, (s) => s === 401);
  return reference;
}

async function main(): Promise<void> {
  const receiver = new Receiver();
  const receiverUrl = await receiver.listen();
  // The reference delivers its events too (BASELINE_WEBHOOK_URL), to the same receiver: the same work on both
  // sides. BENCH_UNSUBSCRIBED=1 (analysis only): neither side has a subscriber.
  const reference = await startReference(
    POOL,
    process.env.BENCH_UNSUBSCRIBED === '1' ? undefined : receiver.referenceUrl,
  );
  const service = await startService();
  log(`seeding the service with ${POOL} beneficiaries through its bulk import`);
  const { placeKey, seedSeconds } = await seedService(receiverUrl);
  log(`bulk import: ${POOL} rows in ${seedSeconds.toFixed(1)} s`);

  const refBase = `http://127.0.0.1:${REFERENCE_PORT}`;
  const svcBase = `http://127.0.0.1:${SERVICE_PORT}`;
  const next = { ref: 0, svc: 0 };
  const targets = {
    ref: { base: refBase, key: 'place-key-1', gym: 'GYM1', db: 'baseline', table: 'track_usages' },
    svc: { base: svcBase, key: placeKey, gym: GYM_CODE, db: SERVICE_DB, table: 'visits' },
  };
  /** Per register run: events at the receiver when it ended, events written, seconds until all had arrived. */
  const backlogs: { who: 'ref' | 'svc'; receivedAtEnd: number; events: number; seconds: number }[] = [];
  const subscribed = process.env.BENCH_UNSUBSCRIBED !== '1';
  const cpu: string[] = [];
  const serversDb = await mysql();
  const servers = await serverPids(serversDb, process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
  await serversDb.end();
  /** Waits until every event of `who` is at the receiver: neither side runs beside the other's backlog. */
  async function drainOf(who: 'ref' | 'svc'): Promise<{ events: number; seconds: number }> {
    if (!subscribed) return { events: 0, seconds: 0 };
    const db = await mysql(targets[who].db);
    try {
      return who === 'svc' ? await drain(receiver, db) : await drainReference(receiver, db);
    } finally {
      await db.end();
    }
  }
  /**
   * One warm-up and one measured run of `mode` against `who`, starting from a settled database and, for
   * register, an empty backlog; register's sustained rate counts the time its events take to arrive.
   */
  async function measure(
    who: 'ref' | 'svc',
    mode: 'validate' | 'register',
  ): Promise<{ result: LoadResult; sustained: number }> {
    const target = targets[who];
    const db = await mysql(target.db);
    await settle(db, target.table);
    await db.end();
    const warm = await load(target.base, target.key, mode, WARMUP_SECONDS, next[who], target.gym);
    if (mode === 'register') next[who] = warm.last;
    if (mode === 'register') await drainOf(who);
    const meter = new CpuMeter({
      [who === 'svc' ? 'service' : 'reference']: (who === 'svc' ? service : reference).pid,
      mariadb: servers.mariadb,
      redis: servers.redis,
    }).start();
    // The bench's own process, the receiver of both sides' events (the load generator runs in a child process).
    const benchAtStart = process.cpuUsage();
    const result = await load(target.base, target.key, mode, SECONDS, next[who], target.gym);
    /** CPU per request of each process since the meter started, the kernel's part named. */
    const cpuLine = () => {
      const used = meter.stop();
      const system = meter.systemSince();
      const each = Object.entries(used).map(
        ([name, us]) =>
          `${name} ${Math.round(us / result.ok)} (kernel ${Math.round((system[name] ?? 0) / result.ok)})`,
      );
      const total = Math.round(Object.values(used).reduce((a, b) => a + b, 0) / result.ok);
      const bench = process.cpuUsage(benchAtStart);
      const idle = Math.round(meter.machineIdleSince() * 100);
      cpu.push(
        `  CPU µs per ${mode}, ${who === 'svc' ? 'service' : 'reference'}: ${each.join(', ')}, total ${total}; ` +
          `the bench's receiver ${Math.round((bench.user + bench.system) / result.ok)}, machine idle ${idle} %`,
      );
    };
    if (mode !== 'register') {
      cpuLine();
      return { result, sustained: result.rps };
    }
    next[who] = result.last;
    const receivedAtEnd = who === 'svc' ? receiver.ids.size : receiver.referenceIds.size;
    const drained = await drainOf(who);
    // CPU per register, its event's delivery included (the run and its drain; MariaDB and Redis are shared
    // with whatever else the machine runs).
    cpuLine();
    backlogs.push({ who, receivedAtEnd, ...drained });
    return { result, sustained: sustainedRps(result, SECONDS, drained.seconds) };
  }
  const results: Record<string, { ref: LoadResult; svc: LoadResult }> = {};
  const sustained: Record<string, { ref: number; svc: number }> = {};
  const rounds: string[] = [];
  for (const mode of ['validate', 'register'] as const) {
    log(
      `${mode}: ${ROUNDS} rounds of a ${WARMUP_SECONDS} s warm-up and ${SECONDS} s at ${CONNECTIONS} connections, reference and service in turn`,
    );
    const runs: { ref: LoadResult[]; svc: LoadResult[] } = { ref: [], svc: [] };
    const kept: { ref: number[]; svc: number[] } = { ref: [], svc: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so that neither always inherits the other's leftovers.
      const order: ('ref' | 'svc')[] = round % 2 === 0 ? ['ref', 'svc'] : ['svc', 'ref'];
      for (const who of order) {
        const measured = await measure(who, mode);
        runs[who].push(measured.result);
        kept[who].push(measured.sustained);
      }
      rounds.push(
        `  ${mode} round ${round + 1}: reference ${runs.ref[round].rps.toFixed(0)} rps (sustained ${kept.ref[round].toFixed(0)}), service ${runs.svc[round].rps.toFixed(0)} rps (sustained ${kept.svc[round].toFixed(0)})`,
      );
    }
    results[mode] = { ref: combine(runs.ref), svc: combine(runs.svc) };
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    sustained[mode] = { ref: mean(kept.ref), svc: mean(kept.svc) };
  }
  if (process.env.BENCH_STOP_AFTER_ROUNDS) {
    // Profiling (BENCH_NODE_FLAGS=--cpu-prof ...): the profile's last seconds are the service's last run.
    console.log([...rounds, ...cpu].join('\n'));
    receiver.close();
    return;
  }
  // Every register wrote an event; the process delivers them while the load runs. Those not yet at the
  // receiver when a register run ends are its backlog, drained before the next run (see measure).
  const eventsDb = await mysql(SERVICE_DB);

  // The service's register beside the member check-in runs (see `interleaved`): a warm-up of
  // BESIDE_WARMUP_SECONDS (its events delivered) before each run, then parts of BESIDE_PART_SECONDS, each
  // sustained (until its events are at the receiver). Without the warm-up its first seconds, on beneficiaries no
  // run has touched yet, ran a fifth slower than the rounds' register and flattered what it is compared with.
  // Like the runs they sit beside (and unlike the rounds' register) they start without a settle: the same
  // conditions on both sides of the comparison. Their failures are counted, and their rate is printed against
  // the rounds' register, so that a slower denominator cannot flatter the ratios unseen.
  const beside = { rates: [] as number[], failed: 0 };
  const registerBeside: RegisterBeside = {
    warmUp: async () => {
      const warm = await load(svcBase, placeKey, 'register', BESIDE_WARMUP_SECONDS, next.svc, GYM_CODE);
      next.svc = warm.last;
      beside.failed += warm.non2xx + warm.errors;
      await drain(receiver, eventsDb);
    },
    part: async () => {
      const run = await load(svcBase, placeKey, 'register', BESIDE_PART_SECONDS, next.svc, GYM_CODE);
      next.svc = run.last;
      const { seconds: drainSeconds } = await drain(receiver, eventsDb);
      beside.failed += run.non2xx + run.errors;
      const ran = ranFor(run);
      const seconds = ran.seconds + drainSeconds;
      beside.rates.push(ran.answers / seconds);
      return { answers: ran.answers, seconds };
    },
  };
  log(
    `member check-ins: ${MEMBER_CHECK_INS} created, half confirmed at their endpoint, half by token, each run ` +
      `in ${INTERLEAVED_PARTS} parts between ${INTERLEAVED_PARTS + 1} registers of ${BESIDE_PART_SECONDS} s (after a ${BESIDE_WARMUP_SECONDS} s warm-up)`,
  );
  const member = await memberCheckIns(receiver, placeKey, () => drain(receiver, eventsDb), registerBeside);
  log('Wellhub-compatible validations, against the confirmation at the endpoint');
  const wellhub = await wellhubValidations(receiver, placeKey, () => drain(receiver, eventsDb));
  const memberDrain = await drain(receiver, eventsDb);
  await eventsDb.end();

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
  const finalDb = await mysql(SERVICE_DB);
  // The load generator abandons the requests in flight when its run ends, and the service may still commit
  // them after the first count: the count is read again, a second apart, until it stops growing.
  let final = await drain(receiver, finalDb);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await drain(receiver, finalDb);
    if (again.events === final.events) break;
    final = again;
  }
  await finalDb.end();
  receiver.close();
  const memory = memoryOf(service.pid ?? 0);

  const lines: string[] = [];
  lines.push('');
  lines.push(
    `check-in throughput, mean of ${ROUNDS} rounds of ${SECONDS} s at ${CONNECTIONS} connections after a ${WARMUP_SECONDS} s warm-up, ${POOL} beneficiaries (p99: the worst round)`,
  );
  lines.push(
    'register at a subscribed gym: both sides deliver every event to one receiver; "sustained" counts answers over run time + time until every event of the run arrived',
  );
  lines.push(
    'route     |  ref rps  sustain  ref p50  ref p99 |  svc rps  sustain  svc p50  svc p99 | ratio (sustained, in-window) | non-2xx (ref/svc)',
  );
  const checks: [string, boolean][] = [];
  const minimum: Record<string, number> = { validate: 1.0, register: 0.9 };
  for (const [mode, { ref, svc }] of Object.entries(results)) {
    const kept = sustained[mode];
    const ratio = kept.svc / kept.ref;
    const inWindow = svc.rps / ref.rps;
    lines.push(
      `${mode.padEnd(9)} |${fmt(ref.rps)} ${fmt(kept.ref)} ${fmt(ref.p50, 1)} ${fmt(ref.p99, 1)} |${fmt(svc.rps)} ${fmt(kept.svc)} ${fmt(svc.p50, 1)} ${fmt(
        svc.p99,
        1,
      )} | ${ratio.toFixed(2)}, ${inWindow.toFixed(2)} | ${ref.non2xx}/${svc.non2xx}`,
    );
    checks.push([
      `${mode}: ratio ${ratio.toFixed(2)}${mode === 'register' ? ' (sustained)' : ''} >= ${minimum[mode].toFixed(1)}`,
      ratio >= minimum[mode],
    ]);
    checks.push([`${mode}: p99 ${svc.p99} ms <= 1.5 x ${ref.p99} ms`, svc.p99 <= 1.5 * ref.p99]);
    checks.push([
      `${mode}: no non-2xx answer from the service (${svc.non2xx}, errors ${svc.errors})`,
      svc.non2xx === 0 && svc.errors === 0,
    ]);
  }
  // Member check-ins against the service's own registers interleaved with each (see `interleaved`).
  lines.push('');
  lines.push(
    `member check-ins, each against the service's own register interleaved with it (the rounds' register: ${sustained.register.svc.toFixed(0)} rps sustained):`,
  );
  for (const [name, run] of [
    ['member check-in creation', member.created],
    ['confirmation at the endpoint', member.endpoint],
    ['confirmation by token', member.token],
  ] as const) {
    const ratio = run.sustained / run.besideRegister;
    const { result } = run;
    lines.push(
      `${name.padEnd(29)} |${fmt(result.rps)} rps (sustained ${run.sustained.toFixed(0)}) ${fmt(result.p50, 1)} ${fmt(result.p99, 1)} ms | register beside ${run.besideRegister.toFixed(0)}: ${ratio.toFixed(2)} sustained | ${result.ok} 2xx, ${result.non2xx} non-2xx`,
    );
    if (name !== 'member check-in creation')
      checks.push([
        `${name}: ${ratio.toFixed(2)} of the service's own register (sustained) >= 0.75`,
        ratio >= 0.75,
      ]);
    checks.push([
      `${name}: no non-2xx (${result.non2xx}, errors ${result.errors})`,
      result.non2xx === 0 && result.errors === 0,
    ]);
  }
  const besideMean = beside.rates.reduce((sum, rate) => sum + rate, 0) / beside.rates.length;
  lines.push(
    `${'registers beside them'.padEnd(29)} | ${beside.rates.length} parts of ${BESIDE_PART_SECONDS} s, ${Math.min(...beside.rates).toFixed(0)}-${Math.max(...beside.rates).toFixed(0)} rps sustained: mean ${(besideMean / sustained.register.svc).toFixed(2)} of the rounds' register`,
  );
  checks.push([
    `registers beside the member check-in runs: no non-2xx (${beside.failed})`,
    beside.failed === 0,
  ]);
  // Against the confirmations at the endpoint interleaved with it.
  const wellhubRatio = wellhub.sustained / wellhub.endpoint;
  lines.push(
    `${'Wellhub validate'.padEnd(29)} |${fmt(wellhub.validated.rps)} rps (sustained ${wellhub.sustained.toFixed(0)}) ${fmt(wellhub.validated.p50, 1)} ${fmt(wellhub.validated.p99, 1)} ms | confirmations at the endpoint beside ${wellhub.endpoint.toFixed(0)}: ${wellhubRatio.toFixed(2)} sustained | ${wellhub.validated.ok} 2xx, ${wellhub.validated.non2xx} non-2xx of ${wellhub.created}`,
  );
  checks.push([
    `Wellhub validate: ${wellhubRatio.toFixed(2)} of the confirmation at the endpoint >= 0.9`,
    wellhubRatio >= 0.9,
  ]);
  checks.push([
    `Wellhub validate: no non-2xx (${wellhub.validated.non2xx}, errors ${wellhub.validated.errors})`,
    wellhub.validated.non2xx === 0 && wellhub.validated.errors === 0,
  ]);
  checks.push([
    `confirmations at the endpoint beside the Wellhub validate: no non-2xx (${wellhub.endpointFailed})`,
    wellhub.endpointFailed === 0,
  ]);
  checks.push([
    `every created member check-in's endpoint arrived (${member.withoutEndpoint + wellhub.withoutEndpoint} missing)`,
    member.withoutEndpoint + wellhub.withoutEndpoint === 0,
  ]);
  lines.push(...rounds);
  lines.push(...cpu);
  lines.push('');
  for (const backlog of backlogs) {
    lines.push(
      `webhooks, ${backlog.who === 'svc' ? 'service' : 'reference'} register run: ${backlog.receivedAtEnd} of ${backlog.events} events at the receiver when the run ended, all ${backlog.seconds.toFixed(1)} s later`,
    );
  }
  lines.push(
    `webhooks after the member check-ins: ${memberDrain.events} events, ${memberDrain.seconds.toFixed(1)} s to drain`,
  );
  lines.push(
    `webhooks at the end: ${final.events} events, ${receiver.ids.size} delivered (distinct webhook-id), ${receiver.deliveries} deliveries, ${receiver.duplicates} duplicates`,
  );
  checks.push([
    `every event delivered (${receiver.ids.size} of ${final.events})`,
    receiver.ids.size === final.events,
  ]);
  lines.push(
    `service resident memory at the end: ${memory.rssMb.toFixed(0)} MB (peak ${memory.peakMb.toFixed(0)} MB)`,
  );
  checks.push([`peak resident memory ${memory.peakMb.toFixed(0)} MB <= 256 MB`, memory.peakMb <= 256]);
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

/** Runs a bench's main, stopping every child it started however it ends. */
export function runBench(main: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      for (const child of children) child.kill('SIGTERM');
      process.exit(1);
    });
  }
  main()
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => {
      for (const child of children) child.kill('SIGTERM');
    });
}

if (require.main === module) runBench(main);
