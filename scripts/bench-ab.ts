// `npm run bench:ab` (not in CI): builds of the service compared in interleaved runs, each against the
// reference measured in the same round. BENCH_AB_MAINS="before=../old/dist/main.js,after=dist/main.js"; the
// builds run on one seeded database (or, with BENCH_AB_OWN_DATABASES=1, each on its own), its gym subscribed
// as in `npm run bench`; each round starts every build in turn (the order rotates) and measures validate and
// register; a build's backlog of deliveries drains before the next starts. Prints each run's ratio to the
// reference's run of the same round, then the spread per build. The reference delivers its events as the
// service does; register is compared sustained (answers over run time + time until the run's events arrived).
import {
  buildsOf,
  drain,
  drainReference,
  eventsElsewhere,
  GYM_CODE,
  load,
  LoadResult,
  log,
  memoryOf,
  mysql,
  Receiver,
  REFERENCE_PORT,
  runBench,
  seedBuilds,
  SECONDS,
  SERVICE_DB,
  settle,
  startReference,
  startService,
  stop,
  sustainedRps,
  WARMUP_SECONDS,
} from './bench';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
/** Validate draws from the first VALIDATE_POOL beneficiaries; registers use the rest, each a fresh one. */
const VALIDATE_POOL = 100_000;
const POOL = Number(process.env.BENCH_POOL ?? 600_000);

async function main(): Promise<void> {
  const mains = buildsOf(process.env.BENCH_AB_MAINS);
  const receiver = new Receiver();
  const receiverUrl = await receiver.listen();
  // The reference delivers its events to the same receiver, as the service does (see npm run bench).
  const reference = await startReference(POOL, receiver.referenceUrl);
  // BENCH_AB_OWN_DATABASES=1: each build on a database of its own, seeded by that build, so that each runs on
  // the schema its own migrations give (an index a newer build drops stays for the older one). Otherwise all
  // share the first build's database, which a newer build's migrations then change for every build. Own
  // databases do not all fit the server's buffer pool: a build does better when it ran last in the round before
  // (its pages still cached), so compare runs in the same position of their rounds.
  const { databases, placeKeys } = await seedBuilds(mains, receiverUrl, POOL, {
    own: process.env.BENCH_AB_OWN_DATABASES === '1',
    tag: 'ab',
  });

  const next: Record<string, number> = { ref: VALIDATE_POOL };
  const targets = {
    ref: {
      base: `http://127.0.0.1:${REFERENCE_PORT}`,
      key: 'place-key-1',
      gym: 'GYM1',
      db: 'baseline',
      table: 'track_usages',
    },
    svc: { base: `http://127.0.0.1:3901`, key: '', gym: GYM_CODE, db: SERVICE_DB, table: 'visits' },
  };
  /** Until every event of `who` is at the receiver; how long that took. */
  async function drainOf(who: 'ref' | 'svc'): Promise<number> {
    const db = await mysql(targets[who].db);
    try {
      return (
        who === 'svc'
          ? await drain(receiver, db, await eventsElsewhere(databases.values(), targets.svc.db))
          : await drainReference(receiver, db)
      ).seconds;
    } finally {
      await db.end();
    }
  }
  /** Register's rate is sustained: its run's answers over run time + time until its events arrived. */
  async function measure(
    who: 'ref' | 'svc',
    counter: string,
    mode: 'validate' | 'register',
  ): Promise<LoadResult & { sustained: number }> {
    const target = targets[who];
    const db = await mysql(target.db);
    await settle(db, target.table);
    await db.end();
    const pool = mode === 'validate' ? VALIDATE_POOL : POOL;
    next[counter] ??= VALIDATE_POOL;
    const warm = await load(target.base, target.key, mode, WARMUP_SECONDS, next[counter], target.gym, pool);
    if (mode === 'register') next[counter] = warm.last;
    if (mode === 'register') await drainOf(who);
    const result = await load(target.base, target.key, mode, SECONDS, next[counter], target.gym, pool);
    if (mode !== 'register') return { ...result, sustained: result.rps };
    next[counter] = result.last;
    return { ...result, sustained: sustainedRps(result, SECONDS, await drainOf(who)) };
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
      targets.svc.db = databases.get(build.label) as string;
      targets.svc.key = placeKeys.get(build.label) as string;
      const service = await startService(build.path, false, targets.svc.db, build.flags);
      next.svc = shared;
      const validate = await measure('svc', 'svc', 'validate');
      const register = await measure('svc', 'svc', 'register');
      shared = next.svc;
      const db = await mysql(targets.svc.db);
      const drained = await drain(receiver, db, await eventsElsewhere(databases.values(), targets.svc.db));
      await db.end();
      const { peakMb } = memoryOf(service.pid as number);
      await stop(service);
      const row = {
        round,
        label: build.label,
        validate: validate.rps / reference.validate.rps,
        register: register.sustained / reference.register.sustained,
        p99: `${register.p99}/${reference.register.p99}`,
      };
      rows.push(row);
      log(
        `round ${round} ${build.label}: validate ${row.validate.toFixed(2)} (p99 ${validate.p99}/${reference.validate.p99} ms), register ${row.register.toFixed(2)} sustained (${register.sustained.toFixed(0)} / ${reference.register.sustained.toFixed(0)} rps; in-window ${register.rps.toFixed(0)} / ${reference.register.rps.toFixed(0)}, p99 ${row.p99} ms), backlog drained in ${drained.seconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB, non-2xx ${validate.non2xx + register.non2xx}`,
      );
    }
  }
  await stop(reference);
  receiver.close();
  const lines = ['', 'build      | validate ratio (min-max)  | register ratio, sustained (min-max)'];
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
