// `npx ts-node -T scripts/bench-cpu.ts` (not in CI; run `npx nest build` first): the service's CPU per request
// at a fixed rate, builds in turn. Unlike a run at full load, whose rate and CPU per request both move with
// the machine, a fixed rate asks each build for the same work: the CPU it spends on it is what differs.
//   BENCH_CPU_MAINS="before=../old/dist/main.js,now=dist/main.js" (default: dist/main.js alone)
//   BENCH_CPU_MODE=validate|register (validate), BENCH_CPU_RATE requests/s (1500), BENCH_CPU_ROUNDS (3)
//   BENCH_CPU_OWN_DATABASES=1: each build on a database of its own, seeded by it (builds whose migrations differ)
// Each round starts every build in turn (the order alternates) on one seeded database (`gym_bench`), its gym
// subscribed as in `npm run bench`; 5 s of warm-up, then 10 s measured: CPU µs per answered request of the
// service's process and of MariaDB (for register, until its events have been delivered).
import {
  buildsOf,
  drain,
  eventsElsewhere,
  GYM_CODE,
  mysql,
  Receiver,
  seedBuilds,
  SERVICE_PORT,
  startService,
  stop,
} from './bench';
import type { Connection } from 'mysql2/promise';
import { atFixedRate, seededCpf } from './fixed-rate';
import { CpuMeter, serverPids } from './process-cpu';

const MODE = process.env.BENCH_CPU_MODE === 'register' ? 'register' : 'validate';
const RATE = Number(process.env.BENCH_CPU_RATE ?? 1500);
const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 3);
const POOL = 400_000;
/** Validate draws from the first VALIDATE_POOL beneficiaries; registers use the rest, each a fresh one. */
const VALIDATE_POOL = 100_000;

let nextRegister = VALIDATE_POOL;

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
  const mains = buildsOf(process.env.BENCH_CPU_MAINS);
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
  for (let round = 0; round < ROUNDS; round++) {
    for (const { label, path } of round % 2 === 0 ? mains : [...mains].reverse()) {
      const database = databases.get(label) as string;
      const db = connections.get(database) as Connection;
      const placeKey = placeKeys.get(label) as string;
      const service = await startService(path, false, database);
      await load(placeKey, 5);
      if (MODE === 'register') await drain(receiver, db, await eventsElsewhere(databases.values(), database));
      const meter = new CpuMeter({ service: service.pid, mariadb: servers.mariadb }).start();
      const result = await load(placeKey, 10);
      if (MODE === 'register') await drain(receiver, db, await eventsElsewhere(databases.values(), database));
      const used = meter.stop();
      const per = (name: string) => Math.round((used[name] ?? 0) / result['2xx']);
      const line = `process ${per('service')} + MariaDB ${per('mariadb')} µs (${result['2xx']} answered, ${result.non2xx} non-2xx)`;
      console.log(`round ${round + 1} ${label}: ${line}`);
      results.set(label, [...(results.get(label) ?? []), line]);
      await stop(service);
    }
  }
  console.log(`\nCPU per ${MODE} at ${RATE}/s:`);
  for (const [label, lines] of results) console.log(`  ${label.padEnd(10)} ${lines.join('  |  ')}`);
  for (const connection of connections.values()) await connection.end();
  receiver.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
