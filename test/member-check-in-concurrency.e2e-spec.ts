import request from 'supertest';
import { CheckInTokenGenerator } from '../src/modules/member-check-ins/check-in-tokens';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import {
  confirmationPath,
  createMemberCheckIn,
  memberAuth,
  outboxEvents,
  subscribeCheckIns,
  visitCount,
} from './factories/member-check-ins.factory';
import { createGym, createPlace, createPlan } from './factories/partners.factory';
import { envelope } from './support/http';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/** Every other draw is the same token, so that parallel creations at one gym collide on it. */
class CollidingTokens extends CheckInTokenGenerator {
  private draws = 0;
  override next(): string {
    this.draws += 1;
    return this.draws % 2 === 1 ? '555555' : super.next();
  }
}

function outcomes(answers: request.Response[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const key = answer.status < 300 ? 'ok' : `${answer.status} ${answer.body.errors?.[0]?.label}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('member check-ins under concurrency (e2e)', () => {
  let t: TestApp;
  /** A second instance in this process, sharing the colliding token generator. */
  let u: TestApp;
  /** No recent window: only the monthly limit stands between two visits. */
  let loose: TestApp;
  let other: ServiceProcess;
  let otherBase: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    const tokens = new CollidingTokens();
    t = await createTestApp({}, [{ provide: CheckInTokenGenerator, useValue: tokens }]);
    u = await createTestApp({}, [{ provide: CheckInTokenGenerator, useValue: tokens }]);
    loose = await createTestApp({ RECENT_CHECKIN_WINDOW_SECONDS: '0' });
    const port = await freePort();
    other = new ServiceProcess({ PORT: String(port) });
    otherBase = `http://127.0.0.1:${port}`;
    await other.waitUntilListening();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(async () => {
    await other.stop();
    await loose.close();
    await u.close();
    await t.close();
    await receiver.stop();
  });

  /** A subscribed gym, a fresh beneficiary, and one pending check-in of theirs with its endpoint. */
  async function pendingCheckIn(gym?: Awaited<ReturnType<typeof createGym>>) {
    const at = gym ?? (await createGym(t));
    if (!gym) await subscribeCheckIns(t, at, receiver.url());
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const checkIn = await createMemberCheckIn(t, {
      identifier: member.cpf,
      service_provider_code: at.place.code,
    });
    return { gym: at, member, checkIn, endpoint: await confirmationPath(t, checkIn.id) };
  }

  async function status(id: string): Promise<string> {
    const res = await request(t.http).get(`/member/v1/check_ins/${id}`).set('Authorization', memberAuth(t));
    return res.body.status as string;
  }

  it('30 parallel confirmations on two processes, at the endpoint and by token, record exactly one visit', async () => {
    const { gym, checkIn, endpoint } = await pendingCheckIn();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const server = i % 2 === 0 ? t.http : otherBase;
        if (i % 4 < 2) return request(server).post(endpoint);
        return request(server)
          .post('/v1/track_usages')
          .set('x-api-key', gym.placeApiKey)
          .send(envelope({ type: 'token', identifier: checkIn.token }));
      }),
    );
    // The losers: a second confirmation at the endpoint is check_in_not_available; the gym's own repeat of
    // the token finds the visit just recorded at its gym, already_used.
    const counts = outcomes(answers);
    expect(counts.ok).toBe(1);
    answers.forEach((res, i) => {
      if (res.status === 200 || res.status === 204) return;
      expect(res.body.errors[0].label).toBe(i % 4 < 2 ? 'check_in_not_available' : 'already_used');
    });
    expect(await visitCount(t)).toBe(1);
    expect(await status(checkIn.id)).toBe('validated');
    const types = (await outboxEvents(t, gym.place.id)).map((event) => event.type).sort();
    expect(types).toEqual(['CHECK_IN_CREATED', 'CHECK_IN_VALIDATED']);
  });

  it('a confirmation racing a cancellation ends in exactly one of the two states, every time', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const wins = { confirm: 0, cancel: 0 };
    for (let round = 0; round < 8; round++) {
      const { checkIn, endpoint } = await pendingCheckIn(gym);
      const [confirmed, cancelled] = await Promise.all([
        request(round % 2 === 0 ? otherBase : t.http).post(endpoint),
        request(round % 2 === 0 ? t.http : otherBase)
          .delete(`/member/v1/check_ins/${checkIn.id}`)
          .set('Authorization', memberAuth(t)),
      ]);
      const final = await status(checkIn.id);
      if (confirmed.status === 200) {
        wins.confirm += 1;
        expect({ cancel: cancelled.status, label: cancelled.body.errors?.[0]?.label, final }).toEqual({
          cancel: 422,
          label: 'check_in_not_available',
          final: 'validated',
        });
      } else {
        wins.cancel += 1;
        expect({
          confirm: confirmed.status,
          label: confirmed.body.errors?.[0]?.label,
          cancel: cancelled.status,
          final,
        }).toEqual({
          confirm: 422,
          label: 'check_in_not_available',
          cancel: 200,
          final: 'cancelled',
        });
      }
    }
    expect(wins.confirm + wins.cancel).toBe(8);
    expect(await visitCount(t)).toBe(wins.confirm);
    const events = await outboxEvents(t, gym.place.id);
    expect(events.filter((e) => e.type === 'CHECK_IN_VALIDATED')).toHaveLength(wins.confirm);
    expect(events.filter((e) => e.type === 'CHECK_IN_CANCELLED')).toHaveLength(wins.cancel);
  });

  it('confirmations racing CPF registers of the same member at another gym record one visit, as the rules allow', async () => {
    for (let round = 0; round < 4; round++) {
      await truncateAll(t.dataSource);
      const { gym, member, checkIn, endpoint } = await pendingCheckIn();
      const elsewhere = await createPlace(t, gym.partner, { name: 'Another unit' });
      await createPlan(t.dataSource, elsewhere.place);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const server = i % 2 === 0 ? t.http : otherBase;
          if (i % 3 === 0) return request(server).post(endpoint);
          if (i % 3 === 1) {
            return request(server)
              .post('/v1/track_usages')
              .set('x-api-key', gym.placeApiKey)
              .send(envelope({ type: 'token', identifier: checkIn.token }));
          }
          return request(server)
            .post('/v1/track_usages')
            .set('x-api-key', elsewhere.placeApiKey)
            .send(envelope({ identifier: member.cpf }));
        }),
      );
      const counts = outcomes(answers);
      expect(counts.ok).toBe(1);
      expect(await visitCount(t)).toBe(1);
      const [visit] = await t.dataSource.query('SELECT place_id FROM visits');
      // Whoever won, the check-in says so: validated exactly when its gym got the visit.
      expect(await status(checkIn.id)).toBe(visit.place_id === gym.place.id ? 'validated' : 'pending');
      const refused = Object.keys(counts).filter((key) => key !== 'ok');
      for (const key of refused) {
        expect(['422 check_in_not_available', '422 already_used', '422 already_used_other_gym']).toContain(
          key,
        );
      }
    }
  });

  it.each(['its endpoint', 'its token', 'the Wellhub-compatible validate'] as const)(
    'a confirmation at %s that waits for the member behind a register at another gym sees that visit, though it looked its check-in up before the lock',
    async (way) => {
      const { gym, member, checkIn, endpoint } = await pendingCheckIn();
      const elsewhere = await createPlace(t, gym.partner, { name: 'Another unit' });
      // The member's lock taken by a transaction of our own, as a register at the other gym takes it.
      const holder = t.dataSource.createQueryRunner();
      await holder.connect();
      try {
        await holder.startTransaction();
        await holder.query('SELECT id FROM beneficiaries WHERE id = ? FOR UPDATE', [member.id]);
        const confirm =
          way === 'its endpoint'
            ? request(t.http).post(endpoint)
            : way === 'its token'
              ? request(t.http)
                  .post('/v1/track_usages')
                  .set('x-api-key', gym.placeApiKey)
                  .send(envelope({ type: 'token', identifier: checkIn.token }))
              : request(t.http)
                  .post('/access/v1/validate')
                  .set('Authorization', `Bearer ${gym.placeApiKey}`)
                  .set('X-Gym-Id', String(gym.place.gymId))
                  .send({ gympass_id: String(member.memberNumber) });
        const confirming = confirm.then((answer) => answer);
        // The confirmation has looked its check-in up and waits for the lock: its statement shows in the process
        // list, asked on the holder's connection (SHOW, not information_schema, which fills a temporary table).
        await eventually(
          async () => {
            const threads: { Id: number | string; db: string | null; Info: string | null }[] =
              await holder.query('SHOW FULL PROCESSLIST');
            const [own] = await holder.query('SELECT CONNECTION_ID() AS id, DATABASE() AS db');
            return threads.some(
              (thread) =>
                String(thread.Id) !== String(own.id) &&
                thread.db === own.db &&
                // With the binary log or the general log on, the server shows the values in place of `?`.
                /FROM beneficiaries b WHERE b\.id = \S+ FOR UPDATE/.test(thread.Info ?? ''),
            );
          },
          10_000,
          'the confirmation to wait for the lock',
        );
        await holder.query('INSERT INTO visits (beneficiary_id, place_id, created_at) VALUES (?, ?, ?)', [
          member.id,
          elsewhere.place.id,
          t.clock.now(),
        ]);
        await holder.commitTransaction();
        const answer = await confirming;
        // The Wellhub-compatible route answers a rule's refusal 400, in that platform's shape.
        expect(answer.status).toBe(way === 'the Wellhub-compatible validate' ? 400 : 422);
        expect(JSON.stringify(answer.body)).toContain('already_used_other_gym');
        expect(await visitCount(t)).toBe(1);
      } finally {
        if (holder.isTransactionActive) await holder.rollbackTransaction();
        await holder.release();
      }
    },
  );

  it("a key that does not reach the gym, or is over its failed look-ups' limit, is refused without waiting for the member's lock", async () => {
    const { gym, member, checkIn } = await pendingCheckIn();
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query('SELECT id FROM beneficiaries WHERE id = ? FOR UPDATE', [member.id]);
      // The gym's key over its limit in this minute (committed apart: the member's lock stays held).
      const now = t.clock.now().getTime();
      await t.dataSource.query(
        'INSERT INTO token_lookup_failures (place_id, window_start, failures) VALUES (?, ?, 1000)',
        [gym.place.id, new Date(now - (now % 60_000))],
      );
      // A request that took the member's lock would wait for this transaction: 50 s, then its retries.
      let blockedTimer: NodeJS.Timeout | undefined;
      const blocked = new Promise<'blocked'>((resolve) => {
        blockedTimer = setTimeout(() => resolve('blocked'), 10_000);
      });
      const answers = await Promise.race([
        Promise.all([
          request(t.http)
            .post('/access/v1/validate')
            .set('Authorization', 'Bearer not-a-key-of-this-gym')
            .set('X-Gym-Id', String(gym.place.gymId))
            .send({ gympass_id: String(member.memberNumber) }),
          request(t.http)
            .post('/access/v1/validate')
            .set('Authorization', `Bearer ${gym.placeApiKey}`)
            .set('X-Gym-Id', String(gym.place.gymId))
            .send({ gympass_id: String(member.memberNumber) }),
          request(t.http)
            .post('/v1/track_usages')
            .set('x-api-key', gym.placeApiKey)
            .send(envelope({ type: 'token', identifier: checkIn.token })),
        ]),
        blocked,
      ]).finally(() => clearTimeout(blockedTimer));
      expect(answers).not.toBe('blocked');
      const [unknownKey, overLimit, tokenOverLimit] = answers as request.Response[];
      expect(unknownKey.status).toBe(401);
      expect(overLimit.status).toBe(429);
      expect(tokenOverLimit.status).toBe(429);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    expect(await visitCount(t)).toBe(0);
  });

  it('with a monthly limit of one and no recent window, a confirmation and a register still record one visit', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const elsewhere = await createGym(t);
    const member = await createBeneficiary(
      t.dataSource,
      await createBenefitPlan(t.dataSource, { monthlyVisitLimit: 1 }),
    );
    const checkIn = await createMemberCheckIn(loose, {
      identifier: member.cpf,
      service_provider_code: gym.place.code,
    });
    const endpoint = await confirmationPath(t, checkIn.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? request(loose.http).post(endpoint)
          : request(loose.http)
              .post('/v1/track_usages')
              .set('x-api-key', elsewhere.placeApiKey)
              .send(envelope({ identifier: member.cpf })),
      ),
    );
    expect(outcomes(answers).ok).toBe(1);
    expect(await visitCount(t)).toBe(1);
  });

  it('parallel creations at one gym, on two instances, hold distinct tokens even when they draw the same one', async () => {
    const gym = await createGym(t);
    const members = await Promise.all(
      Array.from({ length: 16 }, async () =>
        createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource)),
      ),
    );
    const answers = await Promise.all(
      members.map((member, i) =>
        request((i % 2 === 0 ? t : u).http)
          .post('/member/v1/check_ins')
          .set('Authorization', memberAuth(t))
          .send({ type: 'cpf', identifier: member.cpf, service_provider_code: gym.place.code }),
      ),
    );
    expect(outcomes(answers)).toEqual({ ok: 16 });
    const tokens: { token: string }[] = await t.dataSource.query(
      "SELECT token FROM member_check_ins WHERE status = 'pending'",
    );
    expect(tokens).toHaveLength(16);
    expect(new Set(tokens.map((row) => row.token)).size).toBe(16);
    expect(tokens.filter((row) => row.token === '555555')).toHaveLength(1);
  });

  it('parallel creations for one member on two processes leave exactly one pending check-in', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(i % 2 === 0 ? t.http : otherBase)
          .post('/member/v1/check_ins')
          .set('Authorization', memberAuth(t))
          .send({ type: 'cpf', identifier: member.cpf, service_provider_code: gym.place.code }),
      ),
    );
    expect(outcomes(answers)).toEqual({ ok: 10 });
    const rows: { status: string; cancel_reason: string | null }[] = await t.dataSource.query(
      'SELECT status, cancel_reason FROM member_check_ins',
    );
    expect(rows.filter((row) => row.status === 'pending')).toHaveLength(1);
    expect(rows.filter((row) => row.status === 'cancelled' && row.cancel_reason === 'replaced')).toHaveLength(
      9,
    );
    const cancelled = (await outboxEvents(t, gym.place.id)).filter((e) => e.type === 'CHECK_IN_CANCELLED');
    expect(cancelled).toHaveLength(9);
  });
});
