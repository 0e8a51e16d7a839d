// `npm run bench:ab` (not in CI): builds of the service compared in interleaved runs, each against the
// reference measured in the same round. BENCH_AB_MAINS="before=../old/dist/main.js,after=dist/main.js"; each
// round starts every build in turn (the order rotates) on one seeded database, its gym subscribed as in
// `npm run bench`, and measures validate and register; a build's backlog of deliveries drains before the
// next starts. Prints each run's ratio to the reference's run of the same round, then the spread per build.
import { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import {
  drain,
  GYM_CODE,
  load,
  LoadResult,
  log,
  mysql,
  Receiver,
  REFERENCE_PORT,
  ROOT,
  runBench,
  seedService,
  SECONDS,
  SERVICE_DB,
  settle,
  startReference,
  startService,
  WARMUP_SECONDS,
} from './bench';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
/** Validate draws from the first VALIDATE_POOL beneficiaries; registers use the rest, each a fresh one. */
const VALIDATE_POOL = 100_000;
const POOL = Number(process.env.BENCH_POOL ?? 600_000);

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function main(): Promise<void> {
  const mains = (process.env.BENCH_AB_MAINS ?? `current=${resolve(ROOT, 'dist', 'main.js')}`)
    .split(',')
    .map((entry) => {
      const [label, path] = entry.split('=');
      return { label, path: resolve(path) };
    });
  const reference = await startReference(POOL);
  const receiver = new Receiver();
  const receiverUrl = await receiver.listen();
  let service = await startService(mains[0].path, true);
  log(`seeding the service with ${POOL} beneficiaries`);
  const { placeKey } = await seedService(receiverUrl, POOL);
  await stop(service);

  const next: Record<string, number> = { ref: VALIDATE_POOL };
  const targets = {
    ref: {
      base: `http://127.0.0.1:${REFERENCE_PORT}`,
      key: 'place-key-1',
      gym: 'GYM1',
      db: 'baseline',
      table: 'track_usages',
    },
    svc: { base: `http://127.0.0.1:3901`, key: placeKey, gym: GYM_CODE, db: SERVICE_DB, table: 'visits' },
  };
  async function measure(
    who: 'ref' | 'svc',
    counter: string,
    mode: 'validate' | 'register',
  ): Promise<LoadResult> {
    const target = targets[who];
    const db = await mysql(target.db);
    await settle(db, target.table);
    await db.end();
    const pool = mode === 'validate' ? VALIDATE_POOL : POOL;
    next[counter] ??= VALIDATE_POOL;
    const warm = await load(target.base, target.key, mode, WARMUP_SECONDS, next[counter], target.gym, pool);
    if (mode === 'register') next[counter] = warm.last;
    const result = await load(target.base, target.key, mode, SECONDS, next[counter], target.gym, pool);
    if (mode === 'register') next[counter] = result.last;
    return result;
  }

  const rows: { round: number; label: string; validate: number; register: number; p99: string }[] = [];
  // Registers of all builds share the pool: each build's counter starts where the previous one's ended.
  let shared = VALIDATE_POOL;
  for (let round = 1; round <= ROUNDS; round++) {
    const reference = {
      validate: await measure('ref', 'ref', 'validate'),
      register: await measure('ref', 'ref', 'register'),
    };
    const order = mains.map((_, i) => mains[(i + round - 1) % mains.length]);
    for (const build of order) {
      service = await startService(build.path, false);
      next.svc = shared;
      const validate = await measure('svc', 'svc', 'validate');
      const register = await measure('svc', 'svc', 'register');
      shared = next.svc;
      const db = await mysql(SERVICE_DB);
      const drained = await drain(receiver, db);
      await db.end();
      await stop(service);
      const row = {
        round,
        label: build.label,
        validate: validate.rps / reference.validate.rps,
        register: register.rps / reference.register.rps,
        p99: `${register.p99}/${reference.register.p99}`,
      };
      rows.push(row);
      log(
        `round ${round} ${build.label}: validate ${row.validate.toFixed(2)}, register ${row.register.toFixed(2)} (${register.rps.toFixed(0)} / ${reference.register.rps.toFixed(0)} rps, p99 ${row.p99} ms), backlog drained in ${drained.seconds.toFixed(1)} s, non-2xx ${validate.non2xx + register.non2xx}`,
      );
    }
  }
  await stop(reference);
  receiver.close();
  const lines = ['', 'build      | validate ratio (min-max)  | register ratio (min-max)'];
  for (const { label } of mains) {
    const mine = rows.filter((row) => row.label === label);
    const span = (pick: (row: (typeof rows)[number]) => number) => {
      const values = mine.map(pick);
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return `${mean.toFixed(2)} (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;
    };
    lines.push(
      `${label.padEnd(10)} | ${span((row) => row.validate).padEnd(24)} | ${span((row) => row.register)}`,
    );
  }
  lines.push(`receiver: ${receiver.ids.size} events, ${receiver.duplicates} duplicates`);
  console.log(lines.join('\n'));
}

runBench(main);
