// `perf script -i DIR/<build>-<round>.data | npx ts-node -T scripts/perf-split.ts <requests>` (not in CI): the
// samples of a `perf record` of the service's process (BENCH_CPU_PERF of scripts/bench-cpu.ts, the build run with
// --perf-basic-prof), split by what they were doing, in µs of CPU per request (`perf record -F 999`: a sample is
// about 1,001 µs of one thread's CPU). Each sample goes to the first part its stack names, innermost frame first:
// a frame of the webhook delivery, the event's building, the check-in rules, the HTTP stack, the database
// client, then V8's garbage collector and compiler; what is left is promise and stream plumbing, allocation and the
// kernel outside any JavaScript frame. Asynchronous continuations carry no caller: mysql2 parsing a delivery's
// rows counts as the database client, not as the delivery.
import { createInterface } from 'node:readline';

const SAMPLE_MICROS = 1_001;

/** Parts by the JavaScript frames that name them (a frame's function and file), in order of precedence. */
const PARTS: [string, RegExp][] = [
  [
    'webhook delivery (runs, sender, outcomes)',
    /delivery-runner|webhook-sender|delivery-recorder|deliveries\.repository|delivery-poller|group-commit|signed-headers|delivery\.processor|\/undici\//,
  ],
  ['event built (outbox)', /webhook-outbox|webhooks\.repository/],
  ['queue (Bull, ioredis)', /\/bull\/|\/ioredis\//],
  [
    'check-in rules and their statements',
    /check-in\.service|eligibility|check-in\.controller|track-usage|member-check-ins/,
  ],
  [
    'HTTP stack (Fastify, Nest, guards, logging, metrics)',
    /fastify|@nestjs|passport|_http_server|_http_common|request-logging|http-edge|body-parsing|pino|prom-client|metrics/,
  ],
  ['database client (mysql2, statement batches)', /mysql2|sql-escaper|statement-batch/],
];

function partOf(frames: string[]): string {
  for (const frame of frames) {
    if (!frame.includes('JS:')) continue;
    const part = PARTS.find(([, pattern]) => pattern.test(frame));
    if (part) return part[0];
  }
  const stack = frames.join(' ');
  if (/Scaveng|Marking|MarkCompact|Sweeper|Heap::|GCTracer/.test(stack)) return 'garbage collection';
  if (/compiler::|Compile|Maglev|Turbofan/.test(stack)) return 'JIT compiler';
  if (!stack.includes('JS:')) return 'outside JavaScript (event loop, kernel, allocator)';
  return 'other JavaScript (promises, streams, timers)';
}

async function main(): Promise<void> {
  const requests = Number(process.argv[2]);
  if (!(requests > 0))
    throw new Error('Usage: perf script -i FILE | ts-node scripts/perf-split.ts <requests>');
  const counts = new Map<string, number>();
  let frames: string[] | null = null;
  let samples = 0;
  const close = () => {
    if (!frames) return;
    const part = partOf(frames);
    counts.set(part, (counts.get(part) ?? 0) + 1);
    samples++;
    frames = null;
  };
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') close();
    else if (/^\s/.test(line)) frames?.push(line.trim());
    else frames = [];
  }
  close();
  const micros = (n: number) => Math.round((n * SAMPLE_MICROS) / requests);
  console.log(`${samples} samples: ${micros(samples)} µs of CPU per request`);
  for (const [part, n] of [...counts].sort((a, b) => b[1] - a[1]))
    console.log(
      `${String(micros(n)).padStart(6)} µs  ${((100 * n) / samples).toFixed(1).padStart(5)} %  ${part}`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
