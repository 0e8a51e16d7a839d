// `npm run bench:webhooks`: deliveries per second and lag to a healthy receiver on loopback while another
// gym's receiver hangs, through the real due-poller, Bull queue and signed HTTP delivery. Uses its own
// database (gym_webhook_bench) and queue prefix.
//   1. throughput: 48 events for the hanging gym, 1,000 for the healthy one (a warm-up, not measured), then
//      BENCH_WEBHOOK_EVENTS (20,000) for the healthy one at once; deliveries/s.
//   2. lag: 48 more for the hanging gym, then a steady 400 events/s for 5 s to the healthy one (a commit every
//      25 ms); lag is from an event's commit to its arrival at the receiver, median and p99.
//   3. the reference relay (../shared/bench/baseline.js with BASELINE_WEBHOOK_URL, on its own database
//      baseline_relay): 1,000 outbox rows (the same warm-up), then as many as in 1 at once, deliveries/s, on the same
//      machine in the same run.
// During 1 and 3 the CPU of the delivering process, MariaDB and Redis is read from /proc: µs per delivery.
// The service runs as `npm run start:prod` runs it (the production build, in a process of its own: see
// startService in bench.ts), the relay as the reference bench runs it; neither side's figure includes its
// receivers: the service's run in a child process (webhook-receivers.ts), the relay's in this one. This process
// seeds the service's database and writes its events. BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR" profiles
// the service's process.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { KeyVault } from '../src/common/crypto/key-vault';
import { buildDataSourceOptions } from '../src/database/data-source';
import { generateEventId, generateWebhookSecret } from '../src/modules/webhooks/webhook-policy';
import { WebhooksRepository } from '../src/modules/webhooks/webhooks.repository';
import { BENCH_DIR, BENCH_KEY_SECRET, databaseUrl, mysql, run, start, startService, stop } from './bench';
import { seedDemo } from './demo-seed';
import { CpuMeter, serverPids } from './process-cpu';
import { listen } from './webhook-receivers';

/** Long enough to read on a fast machine: 5,000 took about half a second there, where one pause moved the ratio. */
const BACKLOG = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 20_000);
/** Delivered before each side's measurement, so that both are measured warm (the JIT has compiled the path). */
const WARMUP = 1000;
const HANGING_EVENTS = 48;
const STEADY_PER_SECOND = 400;
const STEADY_SECONDS = 5;
const COMMIT_EVERY_MS = 25;
const RELAY_PORT = 3904;
const RELAY_DB = 'baseline_relay';
const SERVICE_DATABASE = 'gym_webhook_bench';

/** µs of CPU per delivery, by process, and their sum. */
function perDelivery(used: Record<string, number>, deliveries: number): Record<string, number> {
  const per = Object.fromEntries(
    Object.entries(used).map(([name, us]) => [name, Math.round(us / deliveries)]),
  );
  return { ...per, total: Object.values(per).reduce((sum, us) => sum + us, 0) };
}

/** The reference's relay alone: `count` outbox rows at once to a receiver that answers 204. */
async function referenceRelay(count: number) {
  let received = 0;
  const receiver = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await run(['baseline.js', 'seed', '1000'], { BASELINE_DATABASE_URL: databaseUrl(RELAY_DB) });
  const relay = start(
    ['baseline.js', 'serve', String(RELAY_PORT)],
    { BASELINE_DATABASE_URL: databaseUrl(RELAY_DB), BASELINE_WEBHOOK_URL: receiver.url },
    BENCH_DIR,
  );
  const db = await mysql(RELAY_DB);
  try {
    // Its relay polls every 20 ms once started; give it a moment to connect.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const pids = await serverPids(db, process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const meter = new CpuMeter({ reference: relay.pid, mariadb: pids.mariadb, redis: pids.redis });
    const outbox = (rows: number) =>
      db.query(
        `INSERT INTO outbox (type, payload, created_at)
         SELECT 'checkin.created', JSON_OBJECT('id', seq, 'padding', REPEAT('x', 600)), NOW(3) FROM seq_1_to_${rows}`,
      );
    await outbox(WARMUP);
    while (received < WARMUP) await new Promise((resolve) => setTimeout(resolve, 5));
    // Timed from the rows' commit, as the service's events are: the insert is outside the measurement.
    await outbox(count);
    meter.start();
    const started = Date.now();
    while (received < WARMUP + count) await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = (Date.now() - started) / 1000;
    const used = meter.stop();
    return {
      events: count,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round(count / seconds),
      cpuMicrosPerDelivery: perDelivery(used, count),
    };
  } finally {
    relay.kill('SIGTERM');
    await db.query(`DROP DATABASE IF EXISTS \`${RELAY_DB}\``);
    await db.end();
    receiver.server.close();
  }
}

type ReceiverMessage =
  | { kind: 'ready'; healthy: string; hanging: string }
  | { kind: 'received'; ids: string[]; at: number[] }
  | { kind: 'held'; open: number; most: number; total: number };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  // The attempts' warnings (the hanging receiver) and worse; the service's start-up lines are info.
  process.env.BENCH_LOG_LEVEL ??= 'warn';
  const service = await startService(undefined, true, SERVICE_DATABASE);
  const dataSource = new DataSource(buildDataSourceOptions({ databaseUrl: databaseUrl(SERVICE_DATABASE) }));
  await dataSource.initialize();
  const vault = new KeyVault(BENCH_KEY_SECRET);
  const demo = await seedDemo(dataSource, vault);
  await dataSource.query('DELETE FROM webhook_deliveries');
  await dataSource.query('DELETE FROM webhook_endpoint_states');

  /** Event id -> when its row was committed, and when the healthy receiver had it (either may come first). */
  const committedAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  let received = 0;
  const hanging = { total: 0, most: 0 };
  const receivers = fork(join(__dirname, 'webhook-receivers.ts'), [], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
  });
  const urls = await new Promise<{ healthy: string; hanging: string }>((resolve, reject) => {
    receivers.once('error', reject);
    receivers.on('message', (message: ReceiverMessage) => {
      if (message.kind === 'ready') resolve(message);
      else if (message.kind === 'received') {
        received += message.ids.length;
        message.ids.forEach((id, index) => receivedAt.set(id, message.at[index]));
      } else if (message.kind === 'held') {
        hanging.total = message.total;
        hanging.most = message.most;
      }
    });
  });

  const repository = new WebhooksRepository(dataSource);
  const subscribe = async (placeId: string, url: string) => {
    await dataSource.query('DELETE FROM webhook_subscriptions WHERE place_id = ?', [placeId]);
    const id = randomUUID();
    await dataSource.query(
      "INSERT INTO webhook_subscriptions (id, place_id, type, url, secret_ciphertext, active) VALUES (?, ?, 'CHECKIN', ?, ?, 1)",
      [id, placeId, url, vault.seal(generateWebhookSecret())],
    );
    return { id, placeId, url };
  };
  const good = await subscribe(demo.places[1].id, urls.healthy);
  const bad = await subscribe(demo.places[0].id, urls.hanging);
  const payload = JSON.stringify({ type: 'CHECK_IN_CREATED', padding: 'x'.repeat(600) });
  const insert = async (to: { id: string; placeId: string; url: string }, count: number) => {
    const ids: string[] = [];
    await dataSource.transaction(async (manager) => {
      for (let i = 0; i < count; i++) {
        const id = generateEventId();
        ids.push(id);
        await repository.insertEvent(manager, {
          id,
          placeId: to.placeId,
          type: 'CHECK_IN_CREATED',
          payload,
          createdAt: new Date(),
          subscriptionId: to.id,
          url: to.url,
        });
      }
    });
    return ids;
  };
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  // 1. Throughput of a backlog, beside a hanging receiver.
  await insert(bad, HANGING_EVENTS);
  await until(() => hanging.total > 0);
  const serverDb = await mysql();
  const pids = await serverPids(serverDb, process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
  await serverDb.end();
  const meter = new CpuMeter({ service: service.pid, mariadb: pids.mariadb, redis: pids.redis });
  await insert(good, WARMUP);
  await until(() => received >= WARMUP);
  // One transaction: nothing of it is due before its commit, so the inserts are outside the measurement.
  await insert(good, BACKLOG);
  meter.start();
  const started = Date.now();
  await until(() => received >= WARMUP + BACKLOG);
  const seconds = (Date.now() - started) / 1000;
  const used = meter.stop();

  // 2. Lag of a steady stream, beside the same hanging receiver (which now has a backlog too).
  await insert(bad, HANGING_EVENTS);
  const perCommit = Math.round((STEADY_PER_SECOND * COMMIT_EVERY_MS) / 1000);
  const commits = (STEADY_SECONDS * 1000) / COMMIT_EVERY_MS;
  const streamStart = Date.now();
  for (let i = 0; i < commits; i++) {
    const ids = await insert(good, perCommit);
    const now = Date.now();
    for (const id of ids) committedAt.set(id, now);
    const next = streamStart + (i + 1) * COMMIT_EVERY_MS;
    if (next > Date.now()) await new Promise((resolve) => setTimeout(resolve, next - Date.now()));
  }
  const streamed = [...committedAt.keys()];
  await until(() => streamed.every((id) => receivedAt.has(id)));
  const lags = streamed
    .map((id) => Math.max(0, (receivedAt.get(id) as number) - (committedAt.get(id) as number)))
    .sort((a, b) => a - b);

  console.log(
    JSON.stringify({
      healthy: {
        events: BACKLOG,
        seconds: Number(seconds.toFixed(2)),
        deliveriesPerSecond: Math.round(BACKLOG / seconds),
        requests: received,
        duplicates: received - receivedAt.size,
        steadyEvents: lags.length,
        steadyPerSecond: STEADY_PER_SECOND,
        lagMedianMs: percentile(lags, 50),
        lagP99Ms: percentile(lags, 99),
        cpuMicrosPerDelivery: perDelivery(used, BACKLOG),
      },
      hanging: { events: 2 * HANGING_EVENTS, requests: hanging.total, mostOpenAtOnce: hanging.most },
    }),
  );
  receivers.send('release');
  await dataSource.query('DELETE FROM webhook_subscriptions WHERE id IN (?)', [[good.id, bad.id]]);
  receivers.send('stop');
  await stop(service);
  await dataSource.destroy();
  // 3. The reference relay, after the service has stopped (its CPU is not in the reference's figures).
  const reference = await referenceRelay(BACKLOG);
  console.log(JSON.stringify({ referenceRelay: reference }));
  console.log(
    `healthy deliveries/s: service ${Math.round(BACKLOG / seconds)} beside a hanging receiver, reference relay ${reference.deliveriesPerSecond} (ratio ${(BACKLOG / seconds / reference.deliveriesPerSecond).toFixed(2)}); CPU µs per delivery: service ${perDelivery(used, BACKLOG).total}, reference relay ${reference.cpuMicrosPerDelivery.total}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
