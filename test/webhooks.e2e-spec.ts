import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { PlaceSummaryRepository } from '../src/modules/partners/place-summary.repository';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym, createPlace } from './factories/partners.factory';
import { envelope, expectError, partnerToken } from './support/http';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, ReceivedRequest, WebhookReceiver } from './support/webhook-receiver';

describe('webhooks (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  const redirectTarget = new WebhookReceiver();

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' });
    receiver = await new WebhookReceiver().start();
    await redirectTarget.start();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    receiver.reset();
    redirectTarget.reset();
    t.clock.reset();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
    await redirectTarget.stop();
  });

  async function subscribedGym(url = receiver.url()) {
    const gym = await createGym(t);
    const token = await partnerToken(t.http, gym);
    const auth = `Bearer ${token}`;
    const created = await request(t.http)
      .post('/partner/webhook/create')
      .set('Authorization', auth)
      .send({ webhook_url: url, webhook_type: 'CHECKIN' })
      .expect(201);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource), {
      name: 'Maria Silva',
      email: 'maria@example.com',
      phone: '+5511999990000',
    });
    /** A register at the gym: the member's, or another beneficiary's by CPF. */
    const checkIn = (identifier = member.cpf) =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier }))
        .expect(204);
    return {
      ...gym,
      auth,
      secret: created.body.webhook.secret as string,
      webhook: created.body.webhook,
      member,
      checkIn,
    };
  }

  function verify(secret: string, got: ReceivedRequest) {
    return new Webhook(secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    }) as Record<string, unknown>;
  }

  async function deliveries(auth: string, query = '') {
    return (
      await request(t.http).get(`/partner/webhook/deliveries${query}`).set('Authorization', auth).expect(200)
    ).body;
  }

  describe('subscriptions', () => {
    it('creates, lists without the secret, updates and deletes', async () => {
      const g = await subscribedGym();
      expect(g.webhook).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        webhook_url: receiver.url(),
        webhook_type: 'CHECKIN',
        active: true,
        created_at: expect.stringMatching(/-03:00$/),
        secret: expect.stringMatching(/^whsec_/),
      });
      const listed = await request(t.http)
        .get('/partner/webhook/get')
        .set('Authorization', g.auth)
        .expect(200);
      expect(listed.body).toEqual({
        webhooks: [{ ...g.webhook, secret: undefined }].map(({ secret: _s, ...rest }) => ({
          ...rest,
          delivery_state: {
            state: 'closed',
            consecutive_failures: 0,
            open_until: null,
            last_error: null,
            last_failure_at: null,
          },
        })),
      });
      expect(JSON.stringify(listed.body)).not.toContain('whsec_');

      const again = await request(t.http)
        .post('/partner/webhook/create')
        .set('Authorization', g.auth)
        .send({ webhook_url: receiver.url('/other'), webhook_type: 'CHECKIN' });
      expect(expectError(again, 422, 'invalid_parameter')).toContain('update');

      const updated = await request(t.http)
        .put('/partner/webhook/update')
        .set('Authorization', g.auth)
        .send({ webhook_url: receiver.url('/v2'), webhook_type: 'CHECKIN' })
        .expect(200);
      expect(updated.body).toEqual({
        status: 'success',
        code: 200,
        webhook: expect.objectContaining({ webhook_url: receiver.url('/v2') }),
      });
      expect(updated.body.webhook.secret).toBeUndefined();

      expect(
        (
          await request(t.http)
            .delete('/partner/webhook/delete/CHECKIN')
            .set('Authorization', g.auth)
            .expect(200)
        ).body,
      ).toEqual({
        status: 'success',
        code: 200,
      });
      expect(
        (await request(t.http).get('/partner/webhook/get').set('Authorization', g.auth).expect(200)).body,
      ).toEqual({ webhooks: [] });
      expectError(
        await request(t.http).delete('/partner/webhook/delete/CHECKIN').set('Authorization', g.auth),
        404,
        'not_found',
        'Not Found',
      );
      expectError(
        await request(t.http)
          .put('/partner/webhook/update')
          .set('Authorization', g.auth)
          .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' }),
        404,
        'not_found',
        'Not Found',
      );
    });

    it('keeps a subscription and the check-in summary together: a create that fails half-way leaves nothing', async () => {
      const gym = await createGym(t);
      const auth = `Bearer ${await partnerToken(t.http, gym)}`;
      const create = () =>
        request(t.http)
          .post('/partner/webhook/create')
          .set('Authorization', auth)
          .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' });
      const summary = t.app.get(PlaceSummaryRepository);
      const refresh = jest.spyOn(summary, 'refresh').mockRejectedValueOnce(new Error('connection lost'));
      try {
        expectError(await create(), 500, 'internal_error', 'Internal Server Error');
      } finally {
        refresh.mockRestore();
      }
      const [{ n }] = await t.dataSource.query(
        'SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE place_id = ?',
        [gym.place.id],
      );
      expect(Number(n)).toBe(0);
      // The client's retry succeeds, and the next visit there writes its event.
      await create().expect(201);
      const [place] = await t.dataSource.query('SELECT check_in_webhook AS hook FROM places WHERE id = ?', [
        gym.place.id,
      ]);
      expect(Number(place.hook)).toBe(1);
    });

    it("writes each visit's event for the subscription of the moment: created, moved, deleted, created again", async () => {
      const g = await subscribedGym(receiver.url('/a'));
      // A fresh beneficiary per visit: the member's second visit within the window would be refused.
      const plan = await createBenefitPlan(t.dataSource);
      /**
       * A visit, and the event rows of the gym right after it. Each row is read before the next change: an
       * attempt rewrites a row's `url` with the subscription's URL of its moment, which a later move would change.
       */
      const visit = async (): Promise<{ subscription: string; url: string }[]> => {
        await g.checkIn((await createBeneficiary(t.dataSource, plan)).cpf);
        return t.dataSource.query(
          'SELECT subscription_id AS subscription, url FROM webhook_deliveries WHERE place_id = ? ORDER BY created_at, id',
          [g.place.id],
        );
      };
      const first = await visit();
      await request(t.http)
        .put('/partner/webhook/update')
        .set('Authorization', g.auth)
        .send({ webhook_url: receiver.url('/b'), webhook_type: 'CHECKIN' })
        .expect(200);
      const moved = await visit();
      await request(t.http)
        .delete('/partner/webhook/delete/CHECKIN')
        .set('Authorization', g.auth)
        .expect(200);
      const deleted = await visit();
      const again = await request(t.http)
        .post('/partner/webhook/create')
        .set('Authorization', g.auth)
        .send({ webhook_url: receiver.url('/c'), webhook_type: 'CHECKIN' })
        .expect(201);
      const created = await visit();
      expect(again.body.webhook.id).not.toBe(g.webhook.id);
      expect(first).toEqual([{ subscription: g.webhook.id, url: receiver.url('/a') }]);
      expect(moved[1]).toEqual({ subscription: g.webhook.id, url: receiver.url('/b') });
      // No subscription, no event.
      expect(deleted).toHaveLength(2);
      expect(created).toHaveLength(3);
      expect(created[2]).toEqual({ subscription: again.body.webhook.id, url: receiver.url('/c') });
    });

    it('checks the type and the URL', async () => {
      const g = await subscribedGym();
      await request(t.http)
        .delete('/partner/webhook/delete/CHECKIN')
        .set('Authorization', g.auth)
        .expect(200);
      const create = (body: object) =>
        request(t.http).post('/partner/webhook/create').set('Authorization', g.auth).send(body);
      expect(
        expectError(
          await create({ webhook_url: receiver.url(), webhook_type: 'PAYMENT' }),
          422,
          'invalid_parameter',
        ),
      ).toContain('webhook_type');
      expect(
        expectError(
          await create({ webhook_url: 'ftp://example.com/x', webhook_type: 'CHECKIN' }),
          422,
          'invalid_parameter',
        ),
      ).toContain('webhook_url');
      expect(
        expectError(
          await create({ webhook_url: 'https://u:p@example.com/x', webhook_type: 'CHECKIN' }),
          422,
          'invalid_parameter',
        ),
      ).toContain('user name');
      expect(
        expectError(
          await create({ webhook_url: `https://example.com/${'a'.repeat(2050)}`, webhook_type: 'CHECKIN' }),
          422,
          'invalid_parameter',
        ),
      ).toContain('2048');
      // 700 characters as typed, 4200 once percent-encoded: the stored form must fit its column.
      const encoded = { webhook_url: `https://example.com/${'é'.repeat(700)}`, webhook_type: 'CHECKIN' };
      expect(encoded.webhook_url.length).toBeLessThan(2048);
      expect(expectError(await create(encoded), 422, 'invalid_parameter')).toContain('2048');
      await create({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' }).expect(201);
      expect(
        expectError(
          await request(t.http).put('/partner/webhook/update').set('Authorization', g.auth).send(encoded),
          422,
          'invalid_parameter',
        ),
      ).toContain('2048');
      expect(
        (await request(t.http).get('/partner/webhook/get').set('Authorization', g.auth).expect(200)).body
          .webhooks[0].webhook_url,
      ).toBe(receiver.url());
      expectError(await create({ webhook_type: 'CHECKIN' }), 422, 'invalid_parameter');
      expectError(
        await request(t.http).delete('/partner/webhook/delete/PAYMENT').set('Authorization', g.auth),
        422,
        'invalid_parameter',
      );
    });

    it('is scoped to the token’s place, and needs a token', async () => {
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(() => receiver.received.length === 1, 15_000, 'the delivery');
      const other = await createPlace(t, g.partner, { name: 'Other unit' });
      const otherToken = await partnerToken(t.http, {
        placeApiKey: other.placeApiKey,
        partnerApiKey: g.partnerApiKey,
      });
      const otherAuth = `Bearer ${otherToken}`;
      expect(
        (await request(t.http).get('/partner/webhook/get').set('Authorization', otherAuth).expect(200)).body,
      ).toEqual({ webhooks: [] });
      expect((await deliveries(otherAuth)).data).toEqual([]);
      const [delivery] = (await deliveries(g.auth)).data;
      expectError(
        await request(t.http)
          .post(`/partner/webhook/deliveries/${delivery.id}/redeliver`)
          .set('Authorization', otherAuth),
        404,
        'not_found',
        'Not Found',
      );
      expectError(await request(t.http).get('/partner/webhook/get'), 401, 'invalid_token', 'Unauthorized');
    });
  });

  describe('delivery', () => {
    it('never sends again a delivery that is over though its row still says when to try it, and takes it off the schedule', async () => {
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(() => receiver.received.length === 1, 15_000, 'the first delivery');
      await eventually(
        async () =>
          (await t.dataSource.query("SELECT id FROM webhook_deliveries WHERE status = 'delivered'"))
            .length === 1,
        5000,
        'its outcome',
      );
      // Left due by a hand's edit in the database: delivered, yet with a time for its next attempt.
      await t.dataSource.query('UPDATE webhook_deliveries SET next_attempt_at = ?', [
        new Date(Date.now() - 1000),
      ]);
      // A new event of the same endpoint: a run whose batches read the endpoint's due rows.
      const other = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      await g.checkIn(other.cpf);
      await eventually(() => receiver.received.length >= 2, 15_000, 'the new event');
      await eventually(
        async () =>
          (await t.dataSource.query('SELECT id FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL'))
            .length === 0,
        5000,
        'nothing left on the schedule',
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received).toHaveLength(2);
      expect(new Set(receiver.received.map((got) => got.headers['webhook-id'])).size).toBe(2);
      const attempts = await t.dataSource.query('SELECT delivery_id FROM webhook_attempts');
      expect(attempts).toHaveLength(2);
    });

    it('delivers one visit exactly once, signed so that the receiver’s copy of the secret verifies it', async () => {
      const g = await subscribedGym();
      t.clock.set('2026-11-22T10:02:11.412Z');
      await g.checkIn();
      t.clock.reset();
      await eventually(() => receiver.received.length === 1, 15_000, 'the delivery');
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(receiver.received).toHaveLength(1);

      const [got] = receiver.received;
      const headers = {
        'webhook-id': String(got.headers['webhook-id']),
        'webhook-timestamp': String(got.headers['webhook-timestamp']),
        'webhook-signature': String(got.headers['webhook-signature']),
      };
      expect(headers['webhook-signature']).toMatch(/^v1,/);
      expect(got.headers['content-type']).toBe('application/json');
      const verified = new Webhook(g.secret).verify(got.body, headers) as Record<string, unknown>;
      expect(() =>
        new Webhook('whsec_' + Buffer.from('another secret!!').toString('base64')).verify(got.body, headers),
      ).toThrow();
      const [visit] = await t.dataSource.query('SELECT id FROM visits');
      expect(verified).toEqual({
        id: headers['webhook-id'],
        type: 'CHECK_IN_CREATED',
        created_at: '2026-11-22T07:02:11.412-03:00',
        check_in: {
          id: String(visit.id),
          status: 'validated',
          started_at: '2026-11-22T07:02:11.412-03:00',
          expires_at: '2026-11-22T08:32:11.412-03:00',
          plan_code: g.plan.code,
        },
        place: { place: g.place.id, name: g.place.name, code: g.place.code },
        user: {
          name: 'Maria Silva',
          email: 'maria@example.com',
          phone: '+5511999990000',
          document_number: g.member.cpf,
          document_type: 'cpf',
          code: g.member.code,
        },
      });
      const log = await deliveries(g.auth);
      expect(log).toMatchObject({ page: 1, total: 1 });
      expect(log.data[0]).toMatchObject({
        event_id: headers['webhook-id'],
        event_type: 'CHECK_IN_CREATED',
        url: receiver.url(),
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
      });
    });

    it('writes no event for a place without a subscription', async () => {
      const gym = await createGym(t);
      const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier: member.cpf }))
        .expect(204);
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM webhook_deliveries');
      expect(Number(n)).toBe(0);
    });

    it('retries a receiver that fails twice: the event arrives on attempt 3 with the same webhook-id', async () => {
      receiver.respond((_r, index, res) =>
        res.writeHead(index < 2 ? 500 : 200).end(index < 2 ? 'not yet' : 'ok'),
      );
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(() => receiver.received.length === 3, 15_000, 'three attempts');
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      await eventually(
        async () => (await deliveries(g.auth)).data[0].status === 'delivered',
        5000,
        'delivered',
      );
      const [delivery] = (await deliveries(g.auth)).data;
      expect(delivery).toMatchObject({ attempts: 3, last_status_code: 200, status: 'delivered' });
      const attempts = await t.dataSource.query(
        'SELECT number, status_code, response_body FROM webhook_attempts ORDER BY id',
      );
      expect(attempts).toEqual([
        { number: 1, status_code: 500, response_body: 'not yet' },
        { number: 2, status_code: 500, response_body: 'not yet' },
        { number: 3, status_code: 200, response_body: 'ok' },
      ]);
    });

    it('gives up after one attempt plus one per scheduled retry, then redelivers on request', async () => {
      receiver.respond((_r, _i, res) => res.writeHead(503).end('down'));
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(
        async () => (await deliveries(g.auth, '?status=failed')).total === 1,
        15_000,
        'failed',
      );
      expect(receiver.received).toHaveLength(4);
      const [failed] = (await deliveries(g.auth, '?status=failed')).data;
      expect(failed).toMatchObject({
        status: 'failed',
        attempts: 4,
        last_status_code: 503,
        last_error: 'HTTP 503',
      });

      receiver.respond((_r, _i, res) => res.writeHead(204).end());
      const accepted = await request(t.http)
        .post(`/partner/webhook/deliveries/${failed.id}/redeliver`)
        .set('Authorization', g.auth)
        .expect(202);
      expect(accepted.body).toEqual({
        status: 'accepted',
        code: 202,
        delivery_id: failed.id,
        event_id: failed.event_id,
      });
      await eventually(() => receiver.received.length === 5, 15_000, 'the redelivery');
      expect(receiver.received[4].headers['webhook-id']).toBe(failed.event_id);
      await eventually(
        async () => (await deliveries(g.auth)).data[0].status === 'delivered',
        5000,
        'delivered',
      );
    });

    it('stops retrying on 410 Gone', async () => {
      receiver.respond((_r, _i, res) => res.writeHead(410).end('gone'));
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(
        async () => (await deliveries(g.auth, '?status=failed')).total === 1,
        15_000,
        'failed',
      );
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(receiver.received).toHaveLength(1);
    });

    it('counts a redirect as a failure and never calls its target', async () => {
      receiver.respond((_r, _i, res) =>
        res.writeHead(302, { location: redirectTarget.url('/stolen') }).end(),
      );
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(
        async () => (await deliveries(g.auth, '?status=failed')).total === 1,
        15_000,
        'failed',
      );
      expect(redirectTarget.received).toHaveLength(0);
      const [failed] = (await deliveries(g.auth)).data;
      expect(failed.last_status_code).toBe(302);
      expect(failed.last_error).toContain('redirect');
    });

    it('sends a TEST event through the same pipeline', async () => {
      const g = await subscribedGym();
      const accepted = await request(t.http)
        .post('/partner/webhook/test/CHECKIN')
        .set('Authorization', g.auth)
        .expect(202);
      await eventually(() => receiver.received.length === 1, 15_000, 'the test event');
      const body = new Webhook(g.secret).verify(receiver.received[0].body, {
        'webhook-id': String(receiver.received[0].headers['webhook-id']),
        'webhook-timestamp': String(receiver.received[0].headers['webhook-timestamp']),
        'webhook-signature': String(receiver.received[0].headers['webhook-signature']),
      });
      expect(body).toMatchObject({
        id: accepted.body.event_id,
        type: 'TEST',
        place: { place: g.place.id, code: g.place.code },
      });
      expectError(
        await request(t.http).post('/partner/webhook/test/PAYMENT').set('Authorization', g.auth),
        422,
        'invalid_parameter',
      );
    });

    it('sends retries and redeliveries to the subscription’s current URL, signed with its secret', async () => {
      const g = await subscribedGym(receiver.url('/v1'));
      const moveTo = (path: string) =>
        request(t.http)
          .put('/partner/webhook/update')
          .set('Authorization', g.auth)
          .send({ webhook_url: receiver.url(path), webhook_type: 'CHECKIN' })
          .expect(200);
      // The first attempt fails, and the gym moves its webhook while it is on the line.
      receiver.respond((_r, index, res) => {
        if (index > 0) return void res.writeHead(200).end('ok');
        void moveTo('/v2').then(() => res.writeHead(500).end('moving'));
      });
      await g.checkIn();
      await eventually(
        async () => (await deliveries(g.auth)).data[0]?.status === 'delivered',
        15_000,
        'delivered',
      );
      await moveTo('/v3');
      const [delivery] = (await deliveries(g.auth)).data;
      expect(delivery).toMatchObject({ attempts: 2, url: receiver.url('/v2') });
      await request(t.http)
        .post(`/partner/webhook/deliveries/${delivery.id}/redeliver`)
        .set('Authorization', g.auth)
        .expect(202);
      await eventually(() => receiver.received.length === 3, 15_000, 'the redelivery');

      expect(receiver.received.map((r) => r.path)).toEqual(['/v1', '/v2', '/v3']);
      for (const got of receiver.received) expect(verify(g.secret, got).id).toBe(delivery.event_id);
      await eventually(
        async () => (await deliveries(g.auth)).data[0].attempts === 3,
        5000,
        'the third attempt logged',
      );
      expect((await deliveries(g.auth)).data[0]).toMatchObject({
        status: 'delivered',
        url: receiver.url('/v3'),
      });
      expect(
        await t.dataSource.query('SELECT number, url, status_code FROM webhook_attempts ORDER BY id'),
      ).toEqual([
        { number: 1, url: receiver.url('/v1'), status_code: 500 },
        { number: 2, url: receiver.url('/v2'), status_code: 200 },
        { number: 3, url: receiver.url('/v3'), status_code: 200 },
      ]);
    });

    it('fails a delivery whose job fails before any HTTP call, and a redeliver then sends it', async () => {
      const g = await subscribedGym();
      const [{ sealed }] = await t.dataSource.query(
        'SELECT secret_ciphertext AS sealed FROM webhook_subscriptions WHERE place_id = ?',
        [g.place.id],
      );
      // The secret cannot be opened: every try throws before the request is made, and records no attempt.
      await t.dataSource.query('UPDATE webhook_subscriptions SET secret_ciphertext = ? WHERE place_id = ?', [
        'v1.unreadable',
        g.place.id,
      ]);
      await g.checkIn();
      await eventually(
        async () => (await deliveries(g.auth, '?status=failed')).total === 1,
        15_000,
        'failed',
      );
      const [failed] = (await deliveries(g.auth)).data;
      expect(failed).toMatchObject({ status: 'failed', attempts: 0 });
      expect(failed.last_error).toContain('Unknown sealed key format');
      expect(receiver.received).toHaveLength(0);

      await t.dataSource.query('UPDATE webhook_subscriptions SET secret_ciphertext = ? WHERE place_id = ?', [
        sealed,
        g.place.id,
      ]);
      await request(t.http)
        .post(`/partner/webhook/deliveries/${failed.id}/redeliver`)
        .set('Authorization', g.auth)
        .expect(202);
      await eventually(() => receiver.received.length === 1, 15_000, 'the redelivery');
      expect(verify(g.secret, receiver.received[0]).id).toBe(failed.event_id);
      await eventually(
        async () => (await deliveries(g.auth)).data[0].status === 'delivered',
        5000,
        'delivered',
      );

      // Redelivered again, and once more: each one is a job of its own.
      for (const expected of [2, 3]) {
        await request(t.http)
          .post(`/partner/webhook/deliveries/${failed.id}/redeliver`)
          .set('Authorization', g.auth)
          .expect(202);
        await eventually(() => receiver.received.length === expected, 15_000, `redelivery ${expected}`);
        await eventually(
          async () => (await deliveries(g.auth)).data[0].status === 'delivered',
          5000,
          'delivered',
        );
      }
      expect((await deliveries(g.auth)).data[0].attempts).toBe(3);
    });

    it('refuses to redeliver a delivery that is still on its way, and unknown ids', async () => {
      const g = await subscribedGym();
      expectError(
        await request(t.http)
          .post('/partner/webhook/deliveries/dlv_00000000000000000000000000000000/redeliver')
          .set('Authorization', g.auth),
        404,
        'not_found',
        'Not Found',
      );
      expectError(
        await request(t.http).post('/partner/webhook/deliveries/abc/redeliver').set('Authorization', g.auth),
        404,
        'not_found',
        'Not Found',
      );
      expectError(
        await request(t.http).get('/partner/webhook/deliveries?status=lost').set('Authorization', g.auth),
        422,
        'invalid_parameter',
      );
    });
  });

  describe('queue dashboard', () => {
    it('asks for basic auth and shows the delivery queue, whose jobs name the place and target host and carry no secret', async () => {
      const g = await subscribedGym();
      await g.checkIn();
      await eventually(() => receiver.received.length === 1, 15_000, 'the delivery');
      const unauthorized = await request(t.http).get('/admin/queues').expect(401);
      expect(unauthorized.headers['www-authenticate']).toContain('Basic');
      await request(t.http).get('/admin/queues').auth('admin', 'wrong').expect(401);
      const page = await request(t.http)
        .get('/admin/queues')
        .auth('admin', t.config.adminApiToken)
        .expect(200);
      expect(page.text).toContain('<html');
      const api = await request(t.http)
        .get('/admin/queues/api/queues')
        .auth('admin', t.config.adminApiToken)
        .expect(200);
      expect(JSON.stringify(api.body)).toContain(WEBHOOK_QUEUE);

      const queue = t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
      const jobs = await queue.getJobs(['completed', 'waiting', 'delayed', 'failed', 'active']);
      expect(jobs.length).toBeGreaterThan(0);
      // `failing` is there when the endpoint had failed before the batch was handed over.
      for (const job of jobs)
        expect(['attempts', 'failing', 'place', 'subscriptionId', 'target']).toEqual(
          expect.arrayContaining(Object.keys(job.data)),
        );
      expect(JSON.stringify(jobs.map((job) => job.data))).not.toContain('whsec_');
      const [delivery] = await t.dataSource.query(
        'SELECT id, subscription_id AS subscriptionId FROM webhook_deliveries WHERE place_id = ?',
        [g.place.id],
      );
      // One job per batch of an endpoint's attempts: each attempt named by delivery, redelivery and number.
      expect(jobs.find((job) => job.data.attempts?.includes(`${delivery.id}.r0.a1`))?.data).toEqual({
        subscriptionId: delivery.subscriptionId,
        attempts: [`${delivery.id}.r0.a1`],
        place: `${g.place.name} (${g.place.code})`,
        target: new URL(receiver.url()).host,
      });
    });
  });

  describe('two service processes relaying at once', () => {
    let other: ServiceProcess;
    let otherUrl: string;
    beforeAll(async () => {
      const port = await freePort();
      // Same database and queue as this process (from the worker's environment), its own relay and workers.
      other = new ServiceProcess({ PORT: String(port), WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' });
      otherUrl = `http://127.0.0.1:${port}`;
      await other.waitUntilListening();
    });
    afterAll(() => other.stop());

    it('deliver each event once', async () => {
      const g = await subscribedGym();
      const plan = await createBenefitPlan(t.dataSource);
      const members = await Promise.all(
        Array.from({ length: 40 }, () => createBeneficiary(t.dataSource, plan)),
      );
      await Promise.all(
        members.map((m, i) =>
          request(i % 2 === 0 ? t.http : otherUrl)
            .post('/v1/track_usages')
            .set('x-api-key', g.placeApiKey)
            .send(envelope({ identifier: m.cpf }))
            .expect(204),
        ),
      );
      await eventually(() => receiver.received.length >= 40, 20_000, '40 deliveries');
      const delivered = async () =>
        Number(
          (
            await t.dataSource.query(
              "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'delivered'",
            )
          )[0].n,
        );
      await eventually(async () => (await delivered()) === 40, 15_000, '40 outcomes written');
      // Time for a second copy of any of them to arrive.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      expect(
        await t.dataSource.query(
          'SELECT status, attempts, COUNT(*) AS n FROM webhook_deliveries GROUP BY status, attempts',
        ),
      ).toEqual([{ status: 'delivered', attempts: 1, n: '40' }]);
    }, 30_000);
  });

  // Passport keeps one strategy per name per process, so once this second app is closed, routes behind a
  // token fail: it comes last.
  describe('with a connection pool of 2', () => {
    let small: TestApp;
    beforeAll(async () => {
      small = await createTestApp({ DATABASE_POOL_SIZE: '2' });
    });
    afterAll(() => small.close());

    it('answers parallel check-ins at a subscribed gym: the transaction never waits for a second connection', async () => {
      const g = await subscribedGym();
      const plan = await createBenefitPlan(t.dataSource);
      const members = await Promise.all(
        Array.from({ length: 12 }, () => createBeneficiary(t.dataSource, plan)),
      );
      const answers = await Promise.all(
        members.map((m) =>
          request(small.http)
            .post('/v1/track_usages')
            .set('x-api-key', g.placeApiKey)
            .send(envelope({ identifier: m.cpf })),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(204));
      await eventually(() => receiver.received.length === 12, 20_000, '12 deliveries');
    }, 20_000);
  });
});
