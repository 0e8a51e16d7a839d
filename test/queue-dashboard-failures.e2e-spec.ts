import request from 'supertest';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createAccount } from './factories/accounts.factory';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { signIn } from './support/console';
import { envelope } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

interface DashboardJob {
  id: string;
  data: Record<string, unknown>;
  failedReason?: string;
}

/**
 * Support reads /admin/queues alone: a failed HTTP attempt shows as a failed job whose reason names the gym,
 * the target host, the answer and the next attempt; the database still decides when that attempt goes.
 */
describe('queue dashboard shows failed attempts (e2e)', () => {
  let t: TestApp;
  let failing: WebhookReceiver;
  let healthy: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({
      WEBHOOK_RETRY_SCHEDULE: '600',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
    });
    failing = await new WebhookReceiver().start();
    healthy = await new WebhookReceiver().start();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(async () => {
    await t.close();
    await failing.stop();
    await healthy.stop();
  });

  async function checkedInGym(url: string) {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, url);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(envelope({ identifier: member.cpf }))
      .expect(204);
    return gym;
  }

  const jobs = async (cookie: string, status: 'failed' | 'completed'): Promise<DashboardJob[]> => {
    const api = await request(t.http)
      .get(`/admin/queues/api/queues?activeQueue=${WEBHOOK_QUEUE}&status=${status}&page=1&jobsPerPage=50`)
      .set('Cookie', cookie)
      .expect(200);
    const queue = (api.body.queues as { name: string; jobs: DashboardJob[] }[]).find(
      (each) => each.name === WEBHOOK_QUEUE,
    );
    return queue?.jobs ?? [];
  };

  it('names the failing gym, its host, the answer and the next attempt; a delivered attempt completes', async () => {
    failing.respond((_r, _i, res) =>
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"maintenance"}'),
    );
    const broken = await checkedInGym(failing.url('/checkins?token=hidden'));
    const fine = await checkedInGym(healthy.url());
    await eventually(
      () => failing.received.length === 1 && healthy.received.length === 1,
      15_000,
      'attempts',
    );

    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    const place = `${broken.place.name} (${broken.place.code})`;
    let failed: DashboardJob | undefined;
    await eventually(
      async () => {
        failed = (await jobs(support.cookie, 'failed')).find((job) => job.failedReason?.includes(place));
        return failed !== undefined;
      },
      10_000,
      'the failed job',
    );
    const [row] = await t.dataSource.query(
      'SELECT id, status, attempts, next_attempt_at AS nextAttemptAt FROM webhook_deliveries WHERE place_id = ?',
      [broken.place.id],
    );
    // The database is the schedule: the delivery waits for its retry, which the failed job does not hold.
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    const host = new URL(failing.url()).host;
    expect(failed?.failedReason).toBe(
      `${place} → ${host}: attempt 1 of ${row.id} failed: HTTP 503 ({"error":"maintenance"}); ` +
        `next attempt at ${new Date(row.nextAttemptAt).toISOString()}`,
    );
    expect(failed?.failedReason).not.toContain('token=hidden');
    expect(JSON.stringify(failed?.data)).not.toContain('token=hidden');

    // The healthy run's job completes once its outcome is written, which may come after its request arrived.
    await eventually(
      async () =>
        JSON.stringify(await jobs(support.cookie, 'completed')).includes(
          `${fine.place.name} (${fine.place.code})`,
        ),
      10_000,
      'the delivered job to complete',
    );
    expect((await jobs(support.cookie, 'failed')).map((job) => job.failedReason)).not.toContainEqual(
      expect.stringContaining(fine.place.code),
    );
    // Bull never retries it: one attempt reached the receiver.
    expect(failing.received).toHaveLength(1);
  });
});
