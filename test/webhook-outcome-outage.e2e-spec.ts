import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { envelope } from './support/http';
import { OwnMariaDb } from './support/own-servers';
import { freePort } from './support/service-process';
import { createTestApp, TestApp } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/** WEBHOOK_TIMEOUT_MS here: a run's hold on its endpoint lasts this plus 10 s from when it was taken. */
const TIMEOUT_MS = 5000;
const HOLD_MS = TIMEOUT_MS + 10_000;

/**
 * The database dies (SIGKILL) while an attempt is in flight, and comes back a few seconds later: the receiver has
 * the event, so the run keeps its outcome and writes it once the database answers again, within its hold on
 * the endpoint. The attempt is logged once and the event is not sent again.
 */
describe('a webhook outcome written across a database outage (e2e, own mariadbd)', () => {
  let db: OwnMariaDb;
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    db = new OwnMariaDb(await freePort());
    await db.start();
    t = await createTestApp({
      DATABASE_URL: db.url('gym_outcome_outage'),
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    receiver = await new WebhookReceiver().start();
  }, 120_000);
  afterAll(async () => {
    await db.start();
    await t?.close();
    await receiver?.stop();
    await db.remove();
  });

  it('logs the attempt once the database is back, and does not send the event again', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const held: ServerResponse[] = [];
    // The first attempt's answer waits for the test; any later one (a second send) is answered at once.
    receiver.respond((_request, index, res) => (index === 0 ? held.push(res) : res.writeHead(204).end()));

    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(envelope({ identifier: member.cpf }))
      .expect(204);
    await eventually(() => held.length === 1, 10_000, 'the first attempt');
    const sentAt = receiver.received[0].at;

    // The database dies with the attempt in flight; then the receiver answers.
    await db.stop();
    held[0].writeHead(204).end();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await db.start();

    const deliveries = () =>
      t.dataSource.query(
        `SELECT d.status, d.attempts, (SELECT COUNT(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS logged,
                (SELECT MAX(a.status_code) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS statusCode
         FROM webhook_deliveries d`,
      ) as Promise<{ status: string; attempts: number; logged: string; statusCode: number | null }[]>;
    await eventually(
      async () => (await deliveries().catch(() => []))[0]?.status === 'delivered',
      HOLD_MS,
      'the outcome to be written',
    );
    // Past the hold the run had when the database died: a run that had given up would have let the next one
    // send the event again by then.
    const wait = sentAt + HOLD_MS + 3000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    expect(receiver.received).toHaveLength(1);
    const [delivery] = await deliveries();
    expect({ ...delivery, logged: Number(delivery.logged) }).toEqual({
      status: 'delivered',
      attempts: 1,
      logged: 1,
      statusCode: 204,
    });
  }, 60_000);
});
