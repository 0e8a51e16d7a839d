import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger, ROOT_LOGGER } from '../src/common/logging/logging.module';
import { ApiKeysRepository } from '../src/modules/partners/api-keys.repository';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { confirmationPath, memberAuth, subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { flat } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

type LogLine = Record<string, unknown> & { msg?: string; requestId?: string };

/** Every JSON line the app's pino logger writes, kept for the test to read. */
class LogCapture extends Writable {
  readonly lines: LogLine[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const text of chunk.toString().split('\n')) if (text.trim()) this.lines.push(JSON.parse(text));
    done();
  }

  withMessage(msg: string): LogLine[] {
    return this.lines.filter((line) => line.msg === msg);
  }
}

describe('X-Request-Id (e2e)', () => {
  let t: TestApp;
  const logs = new LogCapture();
  const receiver = new WebhookReceiver();
  const ADMIN = { authorization: 'Bearer dev-admin-token-change-me' };

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' }, [
      { provide: ROOT_LOGGER, useValue: createLogger('debug', logs) },
    ]);
    await receiver.start();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    receiver.reset();
    logs.lines.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  describe('on every answer', () => {
    it('echoes a sane id the client sends, on success and on refusal', async () => {
      const ok = await request(t.http).get('/health').set('x-request-id', 'turnstile-7.A_1');
      expect(ok.status).toBe(200);
      expect(ok.headers['x-request-id']).toBe('turnstile-7.A_1');
      const refused = await request(t.http).post('/v1/track_usages').set('x-request-id', 'desk-42');
      expect(refused.status).toBe(401);
      expect(refused.headers['x-request-id']).toBe('desk-42');
    });

    it.each([
      ['too long', 'x'.repeat(65)],
      ['spaces', 'a b'],
      ['header injection characters', 'abc;rm'],
      ['non-ASCII', 'pedido-ç'],
    ])('replaces an id with %s by a UUID of its own', async (_what, given) => {
      const res = await request(t.http).get('/health').set('x-request-id', given);
      expect(res.headers['x-request-id']).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    });

    it('makes a different id for every request without one', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 3; i++) ids.add((await request(t.http).get('/health')).headers['x-request-id']);
      expect(ids.size).toBe(3);
    });
  });

  describe('in every error body, as errors[].meta.request_id', () => {
    it('carries the id of the answer on 401, 404, 422 and the confirmation endpoint', async () => {
      const gym = await createGym(t);
      const answers = [
        await request(t.http).post('/v1/track_usages').set('x-request-id', 'no-key').send({}),
        await request(t.http).get('/nowhere'),
        await request(t.http)
          .post('/v1/track_usages/validate')
          .set('x-api-key', gym.placeApiKey)
          .send(flat({ identifier: '11144477735' })),
        await request(t.http).post('/api/v1/webhook_confirmations/unknown-token').set('x-request-id', 'c-1'),
      ];
      expect(answers.map((res) => res.status)).toEqual([401, 404, 422, 404]);
      for (const res of answers) {
        expect(res.body.errors[0].meta).toEqual({ request_id: res.headers['x-request-id'] });
      }
      expect(answers[0].body.errors[0].meta.request_id).toBe('no-key');
      expect(answers[3].body.errors[0].meta.request_id).toBe('c-1');
      // The contract's keys stay as they were.
      expect(Object.keys(answers[2].body.errors[0]).sort()).toEqual(
        ['detail', 'label', 'meta', 'source', 'status', 'title'].sort(),
      );
    });
  });

  describe('in the logs', () => {
    it("names the request on every line logged while serving it, the exception filter's too", async () => {
      const repository = t.app.get(ApiKeysRepository);
      const original = repository.findPlaceByKeyHash;
      repository.findPlaceByKeyHash = () => Promise.reject(new Error('connection lost'));
      try {
        await request(t.http)
          .post('/partner/auth')
          .set('x-request-id', 'req-logged-500')
          .send({ place_api_key: 'a', partner_api_key: 'b' })
          .expect(500);
      } finally {
        repository.findPlaceByKeyHash = original;
      }
      await eventually(() => logs.withMessage('request completed').length > 0, 5000, 'the request line');
      const [unhandled] = logs.withMessage('Unhandled exception');
      expect(unhandled).toMatchObject({ requestId: 'req-logged-500', context: 'Exceptions' });
      expect(logs.withMessage('request completed')).toEqual([
        expect.objectContaining({ requestId: 'req-logged-500', res: { statusCode: 500 } }),
      ]);
      const lines = logs.lines.filter((line) => 'requestId' in line);
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(new Set(lines.map((line) => line.requestId))).toEqual(new Set(['req-logged-500']));
    });

    it('names the request on lines logged after a body that arrived in pieces', async () => {
      const repository = t.app.get(ApiKeysRepository);
      const original = repository.findPlaceByKeyHash;
      repository.findPlaceByKeyHash = () => Promise.reject(new Error('connection lost'));
      const server = t.app.getHttpServer();
      const { port } = (
        server.listening ? server : await t.app.listen(0, '127.0.0.1')
      ).address() as AddressInfo;
      try {
        const status = await new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            {
              port,
              host: '127.0.0.1',
              method: 'POST',
              path: '/partner/auth',
              headers: { 'content-type': 'application/json', 'x-request-id': 'slow-body-1' },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.write('{"place_api_key": "a", ');
          setTimeout(() => req.end('"partner_api_key": "b"}'), 100);
        });
        expect(status).toBe(500);
      } finally {
        repository.findPlaceByKeyHash = original;
      }
      expect(logs.withMessage('Unhandled exception')).toEqual([
        expect.objectContaining({ requestId: 'slow-body-1' }),
      ]);
    });

    it('keeps requests that run at once apart', async () => {
      await Promise.all(
        ['one', 'two', 'three'].map((id) =>
          request(t.http).post('/v1/track_usages').set('x-request-id', `parallel-${id}`).send({}),
        ),
      );
      const completed = logs.withMessage('request completed');
      expect(completed.map((line) => line.requestId).sort()).toEqual([
        'parallel-one',
        'parallel-three',
        'parallel-two',
      ]);
      for (const line of completed) expect(line.requestId).toBe((line.req as { id: string }).id);
    });
  });

  describe("in a webhook's attempts", () => {
    it('stores the id of the request that caused the event and logs it on every attempt', async () => {
      const gym = await createGym(t);
      await subscribeCheckIns(t, gym, receiver.url());
      receiver.respond((_request, index, res) => res.writeHead(index === 0 ? 503 : 200).end());
      const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .set('x-request-id', 'turnstile-checkin-1')
        .send(flat({ identifier: member.cpf }))
        .expect(204);
      await eventually(() => logs.withMessage('Webhook attempt delivered').length === 1, 15_000, 'delivery');

      const failed = logs.withMessage('Webhook attempt failed');
      const delivered = logs.withMessage('Webhook attempt delivered');
      expect(failed).toEqual([
        expect.objectContaining({ requestId: 'turnstile-checkin-1', attempt: 1, statusCode: 503 }),
      ]);
      expect(delivered).toEqual([
        expect.objectContaining({ requestId: 'turnstile-checkin-1', attempt: 2, statusCode: 200 }),
      ]);
      expect(receiver.received).toHaveLength(2);

      const list = await request(t.http).get('/admin/deliveries').set(ADMIN).expect(200);
      const detail = await request(t.http).get(`/admin/deliveries/${list.body.data[0].id}`).set(ADMIN);
      expect(detail.body).toMatchObject({ request_id: 'turnstile-checkin-1', status: 'delivered' });
    });

    it('stores the request id of a member check-in with the event it causes', async () => {
      const gym = await createGym(t);
      await subscribeCheckIns(t, gym, receiver.url());
      const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      await request(t.http)
        .post('/member/v1/check_ins')
        .set('Authorization', memberAuth(t))
        .set('x-request-id', 'app-checkin-9')
        .send({ type: 'cpf', identifier: member.cpf, service_provider_code: gym.place.code })
        .expect(201);
      const events = await t.dataSource.query('SELECT event_type AS type, request_id AS requestId FROM webhook_deliveries');
      expect(events).toEqual([{ type: 'CHECK_IN_CREATED', requestId: 'app-checkin-9' }]);
    });

    it("stores each change's own request id: a replacement, a cancellation, a confirmation at the endpoint and by token", async () => {
      const gym = await createGym(t);
      await subscribeCheckIns(t, gym, receiver.url());
      const plan = await createBenefitPlan(t.dataSource);
      const [one, two] = [
        await createBeneficiary(t.dataSource, plan),
        await createBeneficiary(t.dataSource, plan),
      ];
      const create = (cpf: string, id: string) =>
        request(t.http)
          .post('/member/v1/check_ins')
          .set('Authorization', memberAuth(t))
          .set('x-request-id', id)
          .send({ type: 'cpf', identifier: cpf, service_provider_code: gym.place.code })
          .expect(201);
      const first = await create(one.cpf, 'app-1');
      // The second check-in of the member replaces the first: its cancellation is the new request's.
      const second = await create(one.cpf, 'app-2');
      await request(t.http)
        .post(await confirmationPath(t, second.body.id))
        .set('x-request-id', 'desk-endpoint-1')
        .expect(200);
      const third = await create(two.cpf, 'app-3');
      await request(t.http)
        .delete(`/member/v1/check_ins/${third.body.id}`)
        .set('Authorization', memberAuth(t))
        .set('x-request-id', 'app-cancel-1')
        .expect(200);
      const fourth = await create(two.cpf, 'app-4');
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .set('x-request-id', 'turnstile-token-1')
        .send({ type: 'token', identifier: fourth.body.token })
        .expect(204);

      const events: { type: string; payload: string; requestId: string }[] = await t.dataSource.query(
        'SELECT event_type AS type, payload, request_id AS requestId FROM webhook_deliveries ORDER BY created_at, event_id',
      );
      const of = (checkIn: { body: { id: string } }) =>
        events
          .filter((event) => JSON.parse(event.payload).check_in.id === checkIn.body.id)
          .map(({ type, requestId }) => ({ type, requestId }));
      expect(of(first)).toEqual([
        { type: 'CHECK_IN_CREATED', requestId: 'app-1' },
        { type: 'CHECK_IN_CANCELLED', requestId: 'app-2' },
      ]);
      expect(of(second)).toEqual([
        { type: 'CHECK_IN_CREATED', requestId: 'app-2' },
        { type: 'CHECK_IN_VALIDATED', requestId: 'desk-endpoint-1' },
      ]);
      expect(of(third)).toEqual([
        { type: 'CHECK_IN_CREATED', requestId: 'app-3' },
        { type: 'CHECK_IN_CANCELLED', requestId: 'app-cancel-1' },
      ]);
      expect(of(fourth)).toEqual([
        { type: 'CHECK_IN_CREATED', requestId: 'app-4' },
        { type: 'CHECK_IN_VALIDATED', requestId: 'turnstile-token-1' },
      ]);
    });
  });
});
