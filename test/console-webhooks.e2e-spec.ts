import request from 'supertest';
import { createAccount } from './factories/accounts.factory';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { asSession, ConsoleSession, signIn } from './support/console';
import { envelope, expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

describe('webhooks and deliveries in the console (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '0.2,0.2', LOGIN_MAX_FAILURES_PER_ADDRESS: '1000' });
    receiver = await new WebhookReceiver().start();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    receiver.reset();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function gymWithAccount() {
    const gym = await createGym(t, { name: 'Acme Paulista' });
    const session = await signIn(t.http, await createAccount(t, { role: 'gym', partnerId: gym.partner.id }));
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const checkIn = () =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier: member.cpf }))
        .expect(204);
    return { ...gym, session, member, checkIn };
  }

  const as = (session: ConsoleSession, method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    asSession(t.http, session, method, path);

  async function failedDelivery(g: Awaited<ReturnType<typeof gymWithAccount>>) {
    receiver.respond((_r, _i, res) =>
      res
        .writeHead(503, { 'content-type': 'application/json' })
        .end(`{"error":"down","cpf":"${g.member.cpf}"}`),
    );
    await as(g.session, 'post', `/admin/places/${g.place.id}/webhooks`)
      .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' })
      .expect(201);
    await g.checkIn();
    let id = '';
    await eventually(
      async () => {
        const page = (await as(g.session, 'get', '/admin/deliveries?status=failed').expect(200)).body;
        id = page.data[0]?.id;
        // The page and its total are two reads: the delivery may fail between them.
        return page.total === 1 && page.data.length === 1;
      },
      15_000,
      'failed',
    );
    return id;
  }

  it('lets a gym account subscribe, list, change, test and delete its place’s webhook', async () => {
    const g = await gymWithAccount();
    const base = `/admin/places/${g.place.id}/webhooks`;
    const created = await as(g.session, 'post', base)
      .send({ webhook_url: receiver.url('/a'), webhook_type: 'CHECKIN' })
      .expect(201);
    expect(created.body).toEqual({
      status: 'success',
      code: 201,
      webhook: {
        id: expect.any(String),
        webhook_url: receiver.url('/a'),
        webhook_type: 'CHECKIN',
        active: true,
        created_at: expect.any(String),
        secret: expect.stringMatching(/^whsec_/),
      },
    });
    expectError(
      await as(g.session, 'post', base).send({ webhook_url: receiver.url('/a'), webhook_type: 'CHECKIN' }),
      422,
      'invalid_parameter',
    );
    const { secret, ...listed } = created.body.webhook;
    expect(secret).toBeDefined();
    expect((await as(g.session, 'get', base).expect(200)).body).toEqual({
      webhooks: [
        {
          ...listed,
          delivery_state: {
            state: 'closed',
            consecutive_failures: 0,
            open_until: null,
            last_error: null,
            last_failure_at: null,
            failing_since: null,
          },
        },
      ],
    });
    const updated = await as(g.session, 'put', `${base}/CHECKIN`)
      .send({ webhook_url: receiver.url('/b') })
      .expect(200);
    expect(updated.body.webhook.webhook_url).toBe(receiver.url('/b'));
    expectError(
      await as(g.session, 'put', `${base}/CHECKIN`).send({ webhook_url: 'ftp://x' }),
      422,
      'invalid_parameter',
    );
    const tested = await as(g.session, 'post', `${base}/CHECKIN/test`).expect(202);
    expect(tested.body).toMatchObject({ status: 'accepted', delivery_id: expect.stringMatching(/^dlv_/) });
    await eventually(() => receiver.received.length === 1, 15_000, 'the TEST event');
    expect(receiver.received[0].path).toBe('/b');
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: 'TEST' });
    await as(g.session, 'delete', `${base}/CHECKIN`).expect(200, { status: 'success', code: 200 });
    expectError(await as(g.session, 'delete', `${base}/CHECKIN`), 404, 'not_found', 'Not Found');
    expect((await as(g.session, 'get', base).expect(200)).body).toEqual({ webhooks: [] });
  });

  it('shows the delivery log with the event as sent and every attempt with the receiver’s answer, and redelivers', async () => {
    const g = await gymWithAccount();
    const id = await failedDelivery(g);
    const list = (await as(g.session, 'get', '/admin/deliveries').expect(200)).body;
    expect(list).toEqual({
      data: [
        {
          id,
          place_id: g.place.id,
          place_name: 'Acme Paulista',
          event_id: expect.stringMatching(/^evt_/),
          event_type: 'CHECK_IN_CREATED',
          url: receiver.url(),
          status: 'failed',
          attempts: 3,
          last_status_code: 503,
          last_error: 'HTTP 503',
          last_attempt_at: expect.any(String),
          next_attempt_at: null,
          delivered_at: null,
          created_at: expect.any(String),
          endpoint_state: {
            state: 'closed',
            consecutive_failures: 3,
            open_until: null,
            last_error: 'HTTP 503',
            last_failure_at: expect.any(String),
          },
        },
      ],
      page: 1,
      page_size: 50,
      total: 1,
    });
    const detail = (await as(g.session, 'get', `/admin/deliveries/${id}`).expect(200)).body;
    expect(detail).toEqual({
      ...list.data[0],
      payload: expect.objectContaining({
        id: list.data[0].event_id,
        type: 'CHECK_IN_CREATED',
        user: expect.objectContaining({ document_number: g.member.cpf }),
      }),
      request_id: expect.stringMatching(/\S/),
      attempts: [1, 2, 3].map((number) => ({
        number,
        url: receiver.url(),
        status_code: 503,
        duration_ms: expect.any(Number),
        response_body: `{"error":"down","cpf":"${g.member.cpf}"}`,
        error: 'HTTP 503',
        created_at: expect.any(String),
      })),
    });
    expect(JSON.parse(receiver.received[0].body)).toEqual(detail.payload);

    // Support sees the same with CPFs masked, and may redeliver.
    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    const masked = `${g.member.cpf.slice(0, 3)}.***.***-${g.member.cpf.slice(9)}`;
    const seen = (await as(support, 'get', `/admin/deliveries/${id}`).expect(200)).body;
    expect(seen.payload.user.document_number).toBe(masked);
    expect(seen.attempts[0].response_body).toBe(`{"error":"down","cpf":"${masked}"}`);
    expect(JSON.stringify(seen)).not.toContain(g.member.cpf);

    receiver.respond((_r, _i, res) => res.writeHead(204).end());
    const accepted = await as(support, 'post', `/admin/deliveries/${id}/redeliver`).expect(202);
    expect(accepted.body).toEqual({
      status: 'accepted',
      code: 202,
      delivery_id: id,
      event_id: list.data[0].event_id,
    });
    // Still on its way: a second redelivery is refused.
    const again = await as(support, 'post', `/admin/deliveries/${id}/redeliver`);
    if (again.status !== 202) expectError(again, 422, 'invalid_parameter');
    await eventually(
      async () =>
        (await as(g.session, 'get', `/admin/deliveries/${id}`).expect(200)).body.status === 'delivered',
      15_000,
      'delivered',
    );
    const after = (await as(g.session, 'get', `/admin/deliveries/${id}`).expect(200)).body;
    expect(after.attempts.map((a: { status_code: number }) => a.status_code).slice(0, 4)).toEqual([
      503, 503, 503, 204,
    ]);
  });

  it('lists failed deliveries first, then the newest, filtered by status and place', async () => {
    const g = await gymWithAccount();
    const failed = await failedDelivery(g);
    receiver.respond((_r, _i, res) => res.writeHead(200).end('ok'));
    const second = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', g.placeApiKey)
      .send(envelope({ identifier: second.cpf }))
      .expect(204);
    await eventually(
      async () =>
        (await as(g.session, 'get', '/admin/deliveries?status=delivered').expect(200)).body.total === 1,
      15_000,
      'delivered',
    );
    const all = (await as(g.session, 'get', '/admin/deliveries').expect(200)).body.data;
    expect(all.map((d: { id: string; status: string }) => [d.id === failed, d.status])).toEqual([
      [true, 'failed'],
      [false, 'delivered'],
    ]);
    expect(
      (await as(g.session, 'get', `/admin/deliveries?place_id=${g.place.id}`).expect(200)).body.total,
    ).toBe(2);
    expect((await as(g.session, 'get', '/admin/deliveries?place_id=nope').expect(200)).body.total).toBe(0);
    expectError(await as(g.session, 'get', '/admin/deliveries?status=lost'), 422, 'invalid_parameter');
  });

  it('keeps a gym account out of another gym’s webhooks and deliveries (404), and support out of changes (403)', async () => {
    const ours = await gymWithAccount();
    const theirs = await gymWithAccount();
    const theirFailed = await failedDelivery(theirs);
    const base = `/admin/places/${theirs.place.id}/webhooks`;
    const routes: [method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object][] = [
      ['get', base],
      ['post', base, { webhook_url: receiver.url('/x'), webhook_type: 'CHECKIN' }],
      ['put', `${base}/CHECKIN`, { webhook_url: receiver.url('/x') }],
      ['post', `${base}/CHECKIN/test`],
      ['delete', `${base}/CHECKIN`],
      ['get', `/admin/deliveries/${theirFailed}`],
      ['post', `/admin/deliveries/${theirFailed}/redeliver`],
    ];
    for (const [method, path, body] of routes) {
      const res = await as(ours.session, method, path).send(body ?? {});
      expect({ path, method, status: res.status, label: res.body.errors?.[0]?.label }).toEqual({
        path,
        method,
        status: 404,
        label: 'not_found',
      });
    }
    expect((await as(ours.session, 'get', '/admin/deliveries').expect(200)).body.total).toBe(0);
    // Their subscription and delivery are untouched.
    const [subscription] = await t.dataSource.query(
      'SELECT url FROM webhook_subscriptions WHERE place_id = ?',
      [theirs.place.id],
    );
    expect(subscription.url).toBe(receiver.url());
    const [delivery] = await t.dataSource.query(
      'SELECT status, redeliveries FROM webhook_deliveries WHERE id = ?',
      [theirFailed],
    );
    expect(delivery).toEqual({ status: 'failed', redeliveries: 0 });

    const support = await signIn(t.http, await createAccount(t, { role: 'support' }));
    await as(support, 'get', base).expect(200);
    for (const [method, path, body] of routes.slice(1, 5)) {
      expectError(await as(support, method, path).send(body ?? {}), 403, 'forbidden', 'Forbidden');
    }
  });
});
