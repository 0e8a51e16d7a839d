// `npm run bench:webhooks`: deliveries per second from outbox rows to a receiver on loopback, through the
// real relay, Bull queue and signed HTTP delivery. Uses its own database (gym_webhook_bench).
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { KeyVault } from '../common/crypto/key-vault';
import { loadConfig, setEnvDefaults } from '../config/app-config';
import { bootstrap, exitOnStartFailure } from '../main';
import { generateEventId, generateWebhookSecret } from '../modules/webhooks/webhook-policy';
import { WebhooksRepository } from '../modules/webhooks/webhooks.repository';
import { seedDemo } from './demo-seed';

const EVENTS = 5000;

async function main(): Promise<void> {
  setEnvDefaults({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    PORT: '3902',
    QUEUE_PREFIX: 'gymwebhookbench',
    DATABASE_URL: 'mysql://root@127.0.0.1:3306/gym_webhook_bench',
  });
  const config = loadConfig();
  const app = await bootstrap(config);
  const dataSource = app.get(DataSource);
  const demo = await seedDemo(dataSource, app.get(KeyVault));
  const place = demo.places[1];

  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  await dataSource.query('DELETE FROM webhook_subscriptions WHERE place_id = ?', [place.id]);
  const subscriptionId = randomUUID();
  await dataSource.query(
    "INSERT INTO webhook_subscriptions (id, place_id, type, url, secret_ciphertext, active) VALUES (?, ?, 'CHECKIN', ?, ?, 1)",
    [subscriptionId, place.id, url, app.get(KeyVault).seal(generateWebhookSecret())],
  );
  const repository = app.get(WebhooksRepository);
  const payload = JSON.stringify({ type: 'CHECK_IN_CREATED', padding: 'x'.repeat(600) });
  await dataSource.transaction(async (manager) => {
    for (let i = 0; i < EVENTS; i++) {
      await repository.insertEvent(manager, {
        id: generateEventId(),
        placeId: place.id,
        type: 'CHECK_IN_CREATED',
        payload,
        createdAt: new Date(),
        subscriptionId,
        url,
      });
    }
  });
  const started = Date.now();
  while (received < EVENTS) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (Date.now() - started) / 1000;
  console.log(
    JSON.stringify({
      events: EVENTS,
      seconds: Number(seconds.toFixed(2)),
      deliveriesPerSecond: Math.round(EVENTS / seconds),
    }),
  );
  await dataSource.query('DELETE FROM webhook_subscriptions WHERE id = ?', [subscriptionId]);
  receiver.close();
  await app.close();
}

main().catch(exitOnStartFailure);
