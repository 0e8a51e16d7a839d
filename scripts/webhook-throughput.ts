// `npm run bench:webhooks`: deliveries per second and lag to a healthy receiver on loopback while another
// gym's receiver hangs, through the real due-poller, Bull queue and signed HTTP delivery. Uses its own
// database (gym_webhook_bench) and queue prefix.
//   1. throughput: 48 events for the hanging gym, then 5,000 for the healthy one at once; deliveries/s.
//   2. lag: 48 more for the hanging gym, then a steady 400 events/s for 5 s to the healthy one (a commit every
//      25 ms); lag is from an event's commit to its arrival at the receiver, median and p99.
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { KeyVault } from '../src/common/crypto/key-vault';
import { loadConfig, setEnvDefaults } from '../src/config/app-config';
import { bootstrap, exitOnStartFailure } from '../src/main';
import { generateEventId, generateWebhookSecret } from '../src/modules/webhooks/webhook-policy';
import { WebhooksRepository } from '../src/modules/webhooks/webhooks.repository';
import { seedDemo } from './demo-seed';

const BACKLOG = 5000;
const HANGING_EVENTS = 48;
const STEADY_PER_SECOND = 400;
const STEADY_SECONDS = 5;
const COMMIT_EVERY_MS = 25;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

async function main(): Promise<void> {
  setEnvDefaults({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    PORT: '3902',
    QUEUE_PREFIX: `gymwebhookbench${process.pid}`,
    DATABASE_URL: 'mysql://root@127.0.0.1:3306/gym_webhook_bench',
  });
  const config = loadConfig();
  const app = await bootstrap(config);
  const dataSource = app.get(DataSource);
  const vault = app.get(KeyVault);
  const demo = await seedDemo(dataSource, vault);
  await dataSource.query('DELETE FROM webhook_deliveries');
  await dataSource.query('DELETE FROM webhook_endpoint_states');

  /** Event id -> when its row was committed, and when the healthy receiver had it (either may come first). */
  const committedAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  let received = 0;
  const healthy = await listen((req, res) => {
    const at = Date.now();
    req.resume();
    req.on('end', () => {
      received++;
      receivedAt.set(String(req.headers['webhook-id']), at);
      res.writeHead(200).end();
    });
  });
  const held: ServerResponse[] = [];
  let openNow = 0;
  let mostOpen = 0;
  const hanging = await listen((req, res) => {
    req.resume();
    held.push(res);
    mostOpen = Math.max(mostOpen, ++openNow);
    res.on('close', () => openNow--);
  });

  const repository = app.get(WebhooksRepository);
  const subscribe = async (placeId: string, url: string) => {
    await dataSource.query('DELETE FROM webhook_subscriptions WHERE place_id = ?', [placeId]);
    const id = randomUUID();
    await dataSource.query(
      "INSERT INTO webhook_subscriptions (id, place_id, type, url, secret_ciphertext, active) VALUES (?, ?, 'CHECKIN', ?, ?, 1)",
      [id, placeId, url, vault.seal(generateWebhookSecret())],
    );
    return { id, placeId, url };
  };
  const good = await subscribe(demo.places[1].id, healthy.url);
  const bad = await subscribe(demo.places[0].id, hanging.url);
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
  await until(() => held.length > 0);
  await insert(good, BACKLOG);
  const started = Date.now();
  await until(() => received >= BACKLOG);
  const seconds = (Date.now() - started) / 1000;

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
        steadyEvents: lags.length,
        steadyPerSecond: STEADY_PER_SECOND,
        lagMedianMs: percentile(lags, 50),
        lagP99Ms: percentile(lags, 99),
      },
      hanging: { events: 2 * HANGING_EVENTS, requests: held.length, mostOpenAtOnce: mostOpen },
    }),
  );
  for (const res of held) res.destroy();
  await dataSource.query('DELETE FROM webhook_subscriptions WHERE id IN (?)', [[good.id, bad.id]]);
  healthy.server.close();
  hanging.server.closeAllConnections();
  hanging.server.close();
  await app.close();
}

main().catch(exitOnStartFailure);
