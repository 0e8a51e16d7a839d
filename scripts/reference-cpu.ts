// `npx ts-node -T scripts/reference-cpu.ts` (not in CI): what an event and its delivery cost the reference, for
// comparison with the service's own figures (scripts/bench-cpu.ts, subscribed and BENCH_UNSUBSCRIBED=1). The
// reference (`baseline.js` in BENCH_DIR) registers at a fixed rate with its relay (BASELINE_WEBHOOK_URL at a
// receiver in this process, which answers 204 at once) and without it, in turn: CPU µs per register of its
// process and of MariaDB, read from /proc over 10 s measured after a 5 s warm-up (each phase until its events
// are at the receiver).
//   REFERENCE_CPU_RATE registers a second (1000), REFERENCE_CPU_ROUNDS (2; the order alternates)
import { drainReference, mysql, Receiver, REFERENCE_PORT, startReference, stop } from './bench';
import { atFixedRate, seededCpf } from './fixed-rate';
import { CpuMeter, serverPids } from './process-cpu';

const RATE = Number(process.env.REFERENCE_CPU_RATE ?? 1000);
const ROUNDS = Number(process.env.REFERENCE_CPU_ROUNDS ?? 2);
const POOL = 300_000;

/** Each register a beneficiary of its own, from the start of the seeded pool. */
let next = 0;

function load(seconds: number): Promise<{ '2xx': number; non2xx: number }> {
  return atFixedRate(
    `http://127.0.0.1:${REFERENCE_PORT}/v1/track_usages`,
    'place-key-1',
    RATE,
    seconds,
    () => ({
      data: {
        type: 'track_usage',
        attributes: {
          type: 'cpf',
          identifier: seededCpf(100_000_000 + next++),
          service_provider_code: 'GYM1',
        },
      },
    }),
  );
}

async function main(): Promise<void> {
  const receiver = new Receiver();
  await receiver.listen();
  const lines = new Map<string, string[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const relaying of round % 2 === 0 ? [true, false] : [false, true]) {
      // Seeded afresh each time: every run starts from the same tables and beneficiaries.
      next = 0;
      const reference = await startReference(POOL, relaying ? receiver.referenceUrl : undefined);
      const db = await mysql('baseline');
      const servers = await serverPids(db, process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
      await load(5);
      if (relaying) await drainReference(receiver, db);
      const meter = new CpuMeter({ reference: reference.pid, mariadb: servers.mariadb }).start();
      const result = await load(10);
      const drained = relaying ? await drainReference(receiver, db) : { seconds: 0 };
      const used = meter.stop();
      const per = (name: string) => Math.round((used[name] ?? 0) / result['2xx']);
      const label = relaying ? 'delivering' : 'no relay';
      const line =
        `process ${per('reference')} + MariaDB ${per('mariadb')} µs ` +
        `(${result['2xx']} answered, ${result.non2xx} non-2xx, last events ${drained.seconds.toFixed(1)} s after)`;
      console.log(`round ${round + 1} ${label}: ${line}`);
      lines.set(label, [...(lines.get(label) ?? []), line]);
      await db.end();
      await stop(reference);
    }
  }
  console.log(`\nThe reference's CPU per register at ${RATE}/s:`);
  for (const [label, each] of lines) console.log(`  ${label.padEnd(10)} ${each.join('  |  ')}`);
  receiver.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
