import { Transactions } from '../src/database/transactions';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { DeliveryPoller } from '../src/modules/webhooks/delivery/delivery-poller';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { expectError, flat } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

const TOKEN = 'metrics-scraper-token-for-tests';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('GET /metrics (e2e)', () => {
  let t: TestApp;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' });
    await receiver.start();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    t.clock.reset();
    receiver.reset();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const scrape = async () => {
    const res = await request(t.http).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: res.text, samples: parse(res.text) };
  };

  it('refuses a scrape without the token, or with another', async () => {
    expectError(await request(t.http).get('/metrics'), 401, 'invalid_token', 'Unauthorized');
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer dev-admin-token-change-me', TOKEN]) {
      const res = await request(t.http).get('/metrics').set('Authorization', authorization);
      expectError(res, 401, 'invalid_token', 'Unauthorized');
      expect(res.text).not.toContain('http_request_duration_seconds');
    }
  });

  it('exposes every metric the dashboard reads, and the process metrics', async () => {
    const { text } = await scrape();
    for (const name of [
      'http_request_duration_seconds',
      'checkin_outcomes_total',
      'db_pool_connections',
      'db_pool_waiting_requests',
      'webhook_outbox_pending',
      'webhook_outbox_oldest_pending_age_seconds',
      'webhook_queue_jobs',
      'webhook_delivery_attempts_total',
      'webhook_delivery_attempt_duration_seconds',
      'webhook_endpoint_circuit_open',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });

  it('exposes every metric the Grafana dashboard in docker/ queries', async () => {
    const dashboard = JSON.parse(
      readFileSync(join(__dirname, '..', 'docker', 'grafana', 'gym-integration.json'), 'utf8'),
    ) as { panels: { targets?: { expr: string }[] }[] };
    const expressions = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    const queried = new Set(
      expressions.flatMap((expr) => [...expr.matchAll(/([a-z_][a-z0-9_]*)\{/g)].map((match) => match[1])),
    );
    expect(queried.size).toBeGreaterThanOrEqual(10);
    const { text } = await scrape();
    for (const name of queried) {
      expect({ name, exposed: text.includes(`# TYPE ${name.replace(/_(bucket|count|sum)$/, '')} `) }).toEqual(
        {
          name,
          exposed: true,
        },
      );
    }
  });

  it('counts check-in outcomes by operation and label', async () => {
    const gym = await createGym(t);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const before = (await scrape()).samples;
    const count = (samples: Sample[], operation: string, outcome: string) =>
      (valueOf(samples, 'checkin_outcomes_total', { operation, outcome }) ?? 0) -
      (valueOf(before, 'checkin_outcomes_total', { operation, outcome }) ?? 0);

    const post = (path: string, identifier: string) =>
      request(t.http).post(path).set('x-api-key', gym.placeApiKey).send(flat({ identifier }));
    await post('/v1/track_usages/validate', member.cpf).expect(204);
    await post('/v1/track_usages', member.cpf).expect(204);
    await post('/service/v1/track_usages', member.cpf).expect(422);
    await post('/v1/track_usages/validate', '11144477735').expect(422);
    await request(t.http).post('/api/v1/webhook_confirmations/no-such-token').expect(404);

    const after = (await scrape()).samples;
    expect({
      validateSuccess: count(after, 'validate', 'success'),
      validateNotExists: count(after, 'validate', 'not_exists'),
      registerSuccess: count(after, 'register', 'success'),
      registerAlreadyUsed: count(after, 'register', 'already_used'),
      confirmNotFound: count(after, 'confirm', 'not_found'),
    }).toEqual({
      validateSuccess: 1,
      validateNotExists: 1,
      registerSuccess: 1,
      registerAlreadyUsed: 1,
      confirmNotFound: 1,
    });
  });

  it('labels requests by route pattern and status, never by the URL they were sent to', async () => {
    const gym = await createGym(t);
    const before = (await scrape()).samples;
    await request(t.http)
      .post('/api/v1/track_usages/validate')
      .set('x-api-key', gym.placeApiKey)
      .send(flat({ identifier: '529.982.247-25' }))
      .expect(422);
    await request(t.http).post('/api/v1/webhook_confirmations/secret-capability-token').expect(404);
    await request(t.http).get('/admin/beneficiaries/52998224725').expect(401);
    await request(t.http).get('/no/such/route/52998224725').expect(404);

    const { text, samples } = await scrape();
    const requests = (route: string, status: string, method = 'POST') =>
      (valueOf(samples, 'http_request_duration_seconds_count', { method, route, status_code: status }) ?? 0) -
      (valueOf(before, 'http_request_duration_seconds_count', { method, route, status_code: status }) ?? 0);
    expect(requests('/v1/track_usages/validate', '422')).toBe(1);
    expect(requests('/api/v1/webhook_confirmations/:token', '404')).toBe(1);
    expect(requests('unmatched', '404', 'GET')).toBe(1);
    expect(text).not.toMatch(/52998224725|529\.982|secret-capability-token|no\/such/);
  });

  it("reads the database pool, the outbox's backlog and the queue when scraped", async () => {
    // The check-in transactions' pool opens with the first of them.
    await t.app.get(Transactions).batch((tx) => tx.commit());
    const { samples } = await scrape();
    for (const pool of ['main', 'check_ins']) {
      expect(valueOf(samples, 'db_pool_connections', { pool, state: 'max' })).toBe(t.config.databasePoolSize);
      expect(valueOf(samples, 'db_pool_connections', { pool, state: 'in_use' })).toBeGreaterThanOrEqual(0);
      expect(valueOf(samples, 'db_pool_connections', { pool, state: 'idle' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, 'db_pool_waiting_requests', { pool })).toBe(0);
    }
    expect(valueOf(samples, 'webhook_outbox_pending')).toBe(0);
    expect(valueOf(samples, 'webhook_outbox_oldest_pending_age_seconds')).toBe(0);
    for (const state of ['waiting', 'active', 'delayed', 'completed', 'failed', 'paused']) {
      expect(valueOf(samples, 'webhook_queue_jobs', { state })).toEqual(expect.any(Number));
    }
  });

  it('counts delivery attempts by outcome, with their latency', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    receiver.respond((_request, index, res) => res.writeHead(index === 0 ? 503 : 200).end());
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const before = (await scrape()).samples;
    const moved = (samples: Sample[], name: string, outcome: string) =>
      (valueOf(samples, name, { outcome }) ?? 0) - (valueOf(before, name, { outcome }) ?? 0);
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(flat({ identifier: member.cpf }))
      .expect(204);
    await eventually(async () => {
      const { samples } = await scrape();
      return moved(samples, 'webhook_delivery_attempts_total', 'delivered') === 1;
    });
    const { samples } = await scrape();
    expect({
      delivered: moved(samples, 'webhook_delivery_attempts_total', 'delivered'),
      rejected: moved(samples, 'webhook_delivery_attempts_total', 'rejected'),
      unreachable: moved(samples, 'webhook_delivery_attempts_total', 'unreachable'),
      timedDelivered: moved(samples, 'webhook_delivery_attempt_duration_seconds_count', 'delivered'),
      timedRejected: moved(samples, 'webhook_delivery_attempt_duration_seconds_count', 'rejected'),
    }).toEqual({ delivered: 1, rejected: 1, unreachable: 0, timedDelivered: 1, timedRejected: 1 });
  });

  it("shows each endpoint's circuit state from the database, which every process shares", async () => {
    const failing = await createGym(t);
    const healthy = await createGym(t);
    await subscribeCheckIns(t, failing, 'https://erp.example.com/hooks');
    await subscribeCheckIns(t, healthy, 'https://hooks.example.org/in');
    const [{ id: failingId }] = await t.dataSource.query(
      'SELECT id FROM webhook_subscriptions WHERE place_id = ?',
      [failing.place.id],
    );
    const [{ id: healthyId }] = await t.dataSource.query(
      'SELECT id FROM webhook_subscriptions WHERE place_id = ?',
      [healthy.place.id],
    );
    await t.dataSource.query(
      `INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, open_until, opened_at)
       VALUES (?, 5, 1, NOW(3) + INTERVAL 30 SECOND, NOW(3)), (?, 1, 0, NULL, NULL)`,
      [failingId, healthyId],
    );
    let { samples } = await scrape();
    expect(
      valueOf(samples, 'webhook_endpoint_circuit_open', { subscription: failingId, host: 'erp.example.com' }),
    ).toBe(1);
    expect(
      valueOf(samples, 'webhook_endpoint_circuit_open', {
        subscription: healthyId,
        host: 'hooks.example.org',
      }),
    ).toBe(0);
    await t.dataSource.query('UPDATE webhook_subscriptions SET active = 0 WHERE id = ?', [failingId]);
    ({ samples } = await scrape());
    expect(valueOf(samples, 'webhook_endpoint_circuit_open', { subscription: failingId })).toBeUndefined();
  });

  // Last: it stops the relay, so that the delivery stays in the outbox.
  it("counts the outbox's pending deliveries and the age of the oldest", async () => {
    await t.app.get(DeliveryPoller).onModuleDestroy();
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, 'http://127.0.0.1:9/hooks');
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    t.clock.set('2026-11-24T10:00:00.000Z');
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(flat({ identifier: member.cpf }))
      .expect(204);
    t.clock.advance(90_000);
    const { samples } = await scrape();
    expect(valueOf(samples, 'webhook_outbox_pending')).toBe(1);
    expect(valueOf(samples, 'webhook_outbox_oldest_pending_age_seconds')).toBe(90);
  });
});

describe('GET /metrics without METRICS_TOKEN (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // This suite is over in a moment: let the queue finish connecting to Redis before the app closes.
    await t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE)).isReady();
  });
  afterAll(() => t.close());

  it('does not exist', async () => {
    expectError(await request(t.http).get('/metrics'), 404, 'not_found', 'Not Found');
  });
});
