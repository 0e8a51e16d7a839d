// `npx ts-node -T scripts/bench-cpu.ts` (not in CI; run `npx nest build` first): the service's CPU per request
// at a fixed rate, builds in turn. Unlike a run at full load, whose rate and CPU per request both move with
// the machine, a fixed rate asks each build for the same work: the CPU it spends on it is what differs.
//   BENCH_CPU_MAINS="before=../old/dist/main.js,now=dist/main.js" (default: dist/main.js alone)
//   BENCH_CPU_MODE=validate|register (validate), BENCH_CPU_RATE requests/s (1500), BENCH_CPU_ROUNDS (3)
//   BENCH_CPU_OWN_DATABASES=1: each build on a database of its own, seeded by it (builds whose migrations differ)
//   BENCH_CPU_PARTS=1: register, with the builds of scripts/delivery-parts.ts in place of BENCH_CPU_MAINS (copies of
//   dist/ without the event, with its row only, delivered without requests, and as built), then what each part
//   adds to a register beside the others, round by round
//   BENCH_CPU_WARMUP_SECONDS (5): the warm-up before each measured run (40 s measured the same as 5 s: see
//   docs/performance.md, "Garbage collection")
//   BENCH_CPU_PERF=DIR: `perf record` of the service's process over each measured run, into DIR/<build>-<round>.data
//   (give the build --perf-basic-prof in BENCH_CPU_MAINS to name its JavaScript functions; see docs/performance.md);
//   with BENCH_CPU_PERF_OF=mariadb, of the MariaDB server instead
// Each round starts every build in turn (the order alternates) on one seeded database (`gym_bench`), its gym
// subscribed as in `npm run bench`; 5 s of warm-up, then 10 s measured: CPU µs per answered request of the
// service's process (its kernel part in brackets) and of MariaDB, for register until its events have been
// delivered (with the parts, some of which send nothing, until no delivery waits). A round whose build did not
// answer the rate is marked: its figures count work the others did not do.
import {
  buildsOf,
  drain,
  DRAIN_SECONDS,
  eventsElsewhere,
  GYM_CODE,
  mysql,
  Receiver,
  seedBuilds,
  SERVICE_PORT,
  startService,
  stop,
} from './bench';
import { spawn } from 'node:child_process';
import type { Connection } from 'mysql2/promise';
import { atFixedRate, seededCpf } from './fixed-rate';
import { CpuMeter, serverPids } from './process-cpu';
import { partsBuilds } from './delivery-parts';

const PARTS = process.env.BENCH_CPU_PARTS === '1';
const REGISTER = PARTS || process.env.BENCH_CPU_MODE === 'register';
const MODE = REGISTER ? 'register' : 'validate';
const RATE = Number(process.env.BENCH_CPU_RATE ?? 1500);
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 3);
const WARMUP_SECONDS = Number(process.env.BENCH_CPU_WARMUP_SECONDS ?? 5);
const POOL = 400_000;
/** Validate draws from the first VALIDATE_POOL beneficiaries; registers use the rest, each a fresh one. */
const VALIDATE_POOL = 100_000;

let nextRegister = VALIDATE_POOL;

/** CPU µs per answered request. */
interface Cost {
  process: number;
  mariadb: number;
  /** The build did not answer the rate asked. */
  missed?: boolean;
}

function load(key: string, seconds: number): Promise<{ '2xx': number; non2xx: number }> {
  const path = MODE === 'register' ? '/v1/track_usages' : '/v1/track_usages/validate';
  return atFixedRate(`http://127.0.0.1:${SERVICE_PORT}${path}`, key, RATE, seconds, () => {
    const number = MODE === 'register' ? nextRegister++ : Math.floor(Math.random() * VALIDATE_POOL);
    const flat = {
      type: 'cpf',
      identifier: seededCpf(100_000_000 + number),
      service_provider_code: GYM_CODE,
    };
    return MODE === 'register' ? { data: { type: 'track_usage', attributes: flat } } : flat;
  });
}

async function main(): Promise<void> {
  const mains = PARTS ? partsBuilds() : buildsOf(process.env.BENCH_CPU_MAINS);
  const receiver = new Receiver();
  const receiverUrl = await receiver.listen();
  const { databases, placeKeys } = await seedBuilds(mains, receiverUrl, POOL, {
    own: process.env.BENCH_CPU_OWN_DATABASES === '1',
    tag: 'cpu',
  });
  const connections = new Map<string, Connection>();
  for (const database of new Set(databases.values())) connections.set(database, await mysql(database));
  const servers = await serverPids(
    [...connections.values()][0],
    process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  );
  const results = new Map<string, string[]>();
  const costs = new Map<string, Cost[]>();
  /** Until the run's events are delivered: at the receiver, or (parts, some of which send none) off the schedule. */
  const delivered = async (db: Connection, database: string) => {
    if (MODE !== 'register') return;
    if (PARTS) await undue(db);
    else await drain(receiver, db, await eventsElsewhere(databases.values(), database));
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const { label, path, flags } of round % 2 === 0 ? mains : [...mains].reverse()) {
      const database = databases.get(label) as string;
      const db = connections.get(database) as Connection;
      const placeKey = placeKeys.get(label) as string;
      const service = await startService(path, false, database, flags);
      await load(placeKey, WARMUP_SECONDS);
      await delivered(db, database);
      const meter = new CpuMeter({ service: service.pid, mariadb: servers.mariadb }).start();
      const perf = profile(
        process.env.BENCH_CPU_PERF_OF === 'mariadb' ? servers.mariadb : service.pid,
        `${label}-${round + 1}`,
      );
      const result = await load(placeKey, 10);
      await delivered(db, database);
      const used = meter.stop();
      await perf?.();
      const kernel = meter.systemSince();
      const per = (us: number | undefined) => Math.round((us ?? 0) / result['2xx']);
      // Below 98 % of the rate asked (the machine could not keep up), or with refusals: marked.
      const missed = result['2xx'] < RATE * 10 * 0.98 || result.non2xx > 0 ? ' RATE MISSED' : '';
      const line =
        `process ${per(used.service)} (kernel ${per(kernel.service)}) + MariaDB ${per(used.mariadb)} µs ` +
        `(${result['2xx']} answered, ${result.non2xx} non-2xx)${missed}`;
      console.log(`round ${round + 1} ${label}: ${line}`);
      results.set(label, [...(results.get(label) ?? []), line]);
      costs.set(label, [
        ...(costs.get(label) ?? []),
        { process: per(used.service), mariadb: per(used.mariadb), missed: missed !== '' },
      ]);
      await stop(service);
    }
  }
  console.log(`\nCPU per ${MODE} at ${RATE}/s:`);
  for (const [label, lines] of results) console.log(`  ${label.padEnd(10)} ${lines.join('  |  ')}`);
  if (PARTS) {
    // Each part: what its build spends beyond the build before it, round by round (the rounds move together).
    console.log('\nWhat each part adds to a register (process + MariaDB µs, per round):');
    const labels = [...costs.keys()];
    for (let i = 1; i < labels.length; i++) {
      const [before, after] = [costs.get(labels[i - 1]), costs.get(labels[i])] as Cost[][];
      const rounds = after.map(
        (each, r) =>
          `${each.process - before[r].process} + ${each.mariadb - before[r].mariadb}` +
          (each.missed || before[r].missed ? ' (rate missed)' : ''),
      );
      console.log(`  ${labels[i - 1]} -> ${labels[i]}: ${rounds.join('  |  ')}`);
    }
  }
  for (const connection of connections.values()) await connection.end();
  receiver.close();
}

/** `perf record` of one process until the function it answers is called (BENCH_CPU_PERF). */
function profile(pid: number | undefined, name: string): (() => Promise<void>) | undefined {
  const dir = process.env.BENCH_CPU_PERF;
  if (!dir || pid === undefined) return undefined;
  const perf = spawn('perf', ['record', '-F', '999', '-g', '-p', String(pid), '-o', `${dir}/${name}.data`], {
    stdio: 'ignore',
  });
  return () =>
    new Promise((resolve) => {
      perf.once('exit', () => resolve());
      perf.kill('SIGINT');
    });
}

/**
 * Until no delivery waits (a delivery over has no next attempt): MIN makes it a loose index scan of the endpoint
 * index, one look-up per endpoint, as the poller's read of due endpoints is; it runs inside the measured time.
 */
async function undue(db: Connection): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < DRAIN_SECONDS * 1000) {
    const [rows] = (await db.query(
      `SELECT subscription_id, MIN(next_attempt_at) FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL
       GROUP BY subscription_id LIMIT 1`,
    )) as unknown as [unknown[]];
    if (rows.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.warn(`deliveries still waiting after ${DRAIN_SECONDS} s: this round's figures are cut short`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
