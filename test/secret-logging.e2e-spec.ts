import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger, ROOT_LOGGER } from '../src/common/logging/logging.module';
import { CAPABILITY_SEGMENTS, maskUrl } from '../src/common/logging/log-masking';
import { AccountsRepository } from '../src/modules/accounts/accounts.repository';
import { MemberCheckInsRepository } from '../src/modules/member-check-ins/member-check-ins.repository';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import {
  confirmationPath,
  createMemberCheckIn,
  memberAuth,
  subscribeCheckIns,
} from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/** Everything the app's logger writes, as text. */
class LogCapture extends Writable {
  text = '';

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }

  lines(): Record<string, unknown>[] {
    return this.text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

const METRICS_TOKEN = 'metrics-token-for-the-secret-logging-test';

/** Every form of a token a log could carry: as sent, %-encoded character by character, and its halves. */
function formsOf(token: string): string[] {
  const encoded = [...token].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
  return [token, encoded, encoded.toLowerCase(), token.slice(0, 22), token.slice(-22)];
}

describe('No capability token reaches a log, at any level or status (e2e)', () => {
  let t: TestApp;
  const logs = new LogCapture();
  const receiver = new WebhookReceiver();
  const printed: string[] = [];
  const admin = () => `Bearer ${t.config.adminApiToken}`;

  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN, HTTP_REQUEST_TIMEOUT_SECONDS: '1' }, [
      { provide: ROOT_LOGGER, useValue: createLogger('trace', logs) },
    ]);
    await truncateAll(t.dataSource);
    await receiver.start();
    // Whatever else writes to the process's output (Fastify, Nest, a library's console call) is kept too.
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
      jest.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
        printed.push(String(chunk));
        return write(chunk, ...rest);
      });
    }
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
    await receiver.stop();
  });

  /** A request the HTTP layer itself gives up on: headers sent, the promised body never comes. */
  async function abandonedBody(path: string): Promise<number> {
    const server = t.app.getHttpServer();
    if (!server.listening) await t.app.listen(0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    return new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { port, host: '127.0.0.1', method: 'POST', path, headers: { 'content-length': '100' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('{"password":');
    });
  }

  it('runs every route that takes a token in its path, success and refusal, and finds none of them logged', async () => {
    const secrets: string[] = [];
    const tokenOf = (url: string) => url.split('#/set-password/')[1];

    // Password links: an invitation, used after refusals; a reset; every refusal the routes give.
    const invited = await request(t.http)
      .post('/admin/accounts')
      .set('Authorization', admin())
      .send({ email: 'ops.secret@example.com', name: 'Ops', role: 'operator' })
      .expect(201);
    const invitation = tokenOf(invited.body.password_link.url);
    secrets.push(invitation);
    const link = `/account/password-links/${invitation}`;
    await request(t.http).get(link).expect(200);
    await request(t.http).post(link).send({ password: 'short' }).expect(422);
    await request(t.http).post(link).set('content-type', 'application/json').send('{"password":').expect(400);
    await request(t.http)
      .post(link)
      .send({ password: 'x'.repeat(200 * 1024) })
      .expect(413);
    expect(await abandonedBody(link)).toBe(408);
    const failing = jest
      .spyOn(t.app.get(AccountsRepository), 'findPasswordLink')
      .mockRejectedValueOnce(new Error(`lookup failed for ${link}`));
    await request(t.http).get(link).expect(500);
    failing.mockRestore();
    for (const variant of [
      `${link}/`,
      `${link}?x=1`,
      `${link}?token=${invitation}`,
      `/service${link}`,
      `/ACCOUNT/PASSWORD-LINKS/${invitation}`,
      `/account/password-links/${[...invitation].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
      `/account/password%2Dlinks/${invitation}`,
      `/console/%23/set-password/${invitation}`,
      `/health?access_token=${invitation}&page=1`,
      `/partner/plans?api_key=${invitation}`,
    ]) {
      await request(t.http).get(variant);
      await request(t.http).post(variant).send({ password: 'short' });
    }
    await request(t.http).post(link).send({ password: 'a long enough passphrase' }).expect(204);
    await request(t.http).post(link).send({ password: 'a long enough passphrase' }).expect(404);
    await request(t.http).get(link).expect(404);
    const reset = await request(t.http)
      .post(`/admin/accounts/${invited.body.account.id}/password-link`)
      .set('Authorization', admin())
      .expect(201);
    const resetToken = tokenOf(reset.body.url);
    secrets.push(resetToken);
    await request(t.http).get(`/account/password-links/${resetToken}`).expect(200);
    await request(t.http).post(`/account/password-links/${resetToken}`).send({}).expect(422);
    await request(t.http)
      .post(`/account/password-links/${resetToken}`)
      .send({ password: 'another long passphrase' })
      .expect(204);

    // Confirmation tokens: confirmed, confirmed again, expired, cancelled, unknown, failing; under other bases.
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const benefitPlan = await createBenefitPlan(t.dataSource);
    const confirmations: string[] = [];
    for (let i = 0; i < 4; i++) {
      const member = await createBeneficiary(t.dataSource, benefitPlan);
      const checkIn = await createMemberCheckIn(t, {
        identifier: member.cpf,
        service_provider_code: gym.place.code,
      });
      const path = await confirmationPath(t, checkIn.id);
      confirmations.push(path);
      secrets.push(path.split('/').pop() as string);
      if (i === 2)
        await request(t.http)
          .delete(`/member/v1/check_ins/${checkIn.id}`)
          .set('Authorization', memberAuth(t));
    }
    const [confirmed, expiring, cancelled, failingConfirmation] = confirmations;
    await request(t.http).post(confirmed).expect(200);
    await request(t.http).post(confirmed).expect(422);
    await request(t.http).get(confirmed).expect(404);
    await request(t.http).post(cancelled).expect(422);
    const confirmationFails = jest
      .spyOn(t.app.get(MemberCheckInsRepository), 'byConfirmationHashStatement')
      .mockImplementationOnce(() => {
        throw new Error('database exploded');
      });
    await request(t.http).post(failingConfirmation).expect(500);
    confirmationFails.mockRestore();
    for (const path of [expiring, failingConfirmation]) {
      const token = path.split('/').pop();
      for (const variant of [
        `/service/v1/webhook_confirmations/${token}`,
        `/api/v1/webhook_confirmations/${token}?x=1`,
        `/api/v1/webhook_confirmations//${token}`,
        `/api/v1/webhook%5Fconfirmations/${token}`,
        `/api/v1/webhook_confirmations%2F${token}`,
        `/API/V1/WEBHOOK_CONFIRMATIONS/${token}`,
      ])
        await request(t.http).post(variant);
    }
    t.clock.advance((t.config.checkInConfirmationWindowSeconds + 60) * 1000);
    await request(t.http).post(expiring).expect(422);
    t.clock.reset();
    await request(t.http).post('/api/v1/webhook_confirmations/no-such-token').expect(404);
    await eventually(() => receiver.received.length >= 5, 15_000, 'the check-in webhooks');

    // What else keeps request data: the audit log, the metrics, the queue's jobs.
    const audit = await request(t.http).get('/admin/audit').set('Authorization', admin()).expect(200);
    const auditRows = await t.dataSource.query('SELECT * FROM audit_entries');
    const metrics = await request(t.http)
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    const queue = t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE));
    const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
    expect(jobs.length).toBeGreaterThan(0);

    // The run was logged: at every level the routes answer with, and with their tokens masked.
    const completed = logs.lines().filter((line) => line.msg === 'request completed');
    const levels = new Set(completed.map((line) => line.level));
    expect([...levels].sort()).toEqual([20, 30, 50]);
    const urls = completed.map((line) => (line.req as { url: string }).url);
    expect(urls).toEqual(expect.arrayContaining(['/account/password-links/***']));
    expect(urls).toEqual(expect.arrayContaining(['/api/v1/webhook_confirmations/***']));
    expect(logs.lines().some((line) => line.msg === 'Unhandled exception')).toBe(true);

    const kept: [string, string][] = [
      ['the log', logs.text],
      ["the process's output", printed.join('')],
      ['GET /admin/audit', JSON.stringify(audit.body)],
      ['the audit table', JSON.stringify(auditRows)],
      ['GET /metrics', metrics.text],
      ["the queue's jobs", JSON.stringify(jobs.map((job) => [job.id, job.name, job.data]))],
    ];
    for (const [where, text] of kept)
      for (const secret of secrets)
        for (const form of formsOf(secret))
          expect({ where, found: text.includes(form) }).toEqual({ where, found: false });
  });

  it("masks every route's token parameter: a route that takes one in its path must name its segment", async () => {
    const document = (await request(t.http).get('/docs-json').expect(200)).body as {
      paths: Record<string, unknown>;
    };
    const tokenPaths = Object.keys(document.paths).filter((path) =>
      /\{[^}]*(token|secret|key|password|link)[^}]*\}/i.test(path),
    );
    expect(tokenPaths).toEqual(
      expect.arrayContaining(['/account/password-links/{token}', '/api/v1/webhook_confirmations/{token}']),
    );
    const secret = 'Zz9_SECRET_never-in-a-log_0123456789abcdef';
    for (const path of tokenPaths) {
      const url = path.replace(/\{[^}]+\}/g, secret);
      const segment = path.split('/').find((_part, i, parts) => /^\{/.test(parts[i + 1] ?? ''));
      expect({ path, named: (CAPABILITY_SEGMENTS as readonly string[]).includes(segment ?? '') }).toEqual({
        path,
        named: true,
      });
      expect(maskUrl(url)).not.toContain(secret);
    }
  });
});
