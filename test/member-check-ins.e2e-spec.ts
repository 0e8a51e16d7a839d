import request from 'supertest';
import { CheckInTokenGenerator } from '../src/modules/member-check-ins/check-in-tokens';
import { createBeneficiary, createBenefitPlan, nextCpf } from './factories/beneficiaries.factory';
import {
  confirmationPath,
  createMemberCheckIn,
  memberAuth,
  outboxEvents,
  subscribeCheckIns,
  visitCount,
} from './factories/member-check-ins.factory';
import { createGym, createPlace, createPlan, deletePlan } from './factories/partners.factory';
import { envelope, expectError } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const STARTED = '2026-11-22T10:02:11.412Z';
const MINUTE = 60_000;

/** Tokens drawn from a list the test sets, so that they collide on purpose. */
class ScriptedTokens extends CheckInTokenGenerator {
  private script: string[] = [];
  override next(): string {
    return this.script.shift() ?? super.next();
  }
  set(tokens: string[]): void {
    this.script = [...tokens];
  }
}

describe('member check-ins (e2e)', () => {
  let t: TestApp;
  /** A confirmation window of 10 minutes. */
  let short: TestApp;
  /** 3 failed token look-ups a minute per key. */
  let limited: TestApp;
  let receiver: WebhookReceiver;
  const tokens = new ScriptedTokens();

  // Every app of the suite lives as long as the suite: closing one while another serves breaks the other.
  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({}, [{ provide: CheckInTokenGenerator, useValue: tokens }]);
    short = await createTestApp({ CHECK_IN_CONFIRMATION_WINDOW_SECONDS: '600' });
    limited = await createTestApp({ TOKEN_LOOKUP_FAILURES_PER_MINUTE: '3' });
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    t.clock.set(STARTED);
    tokens.set([]);
  });
  afterAll(async () => {
    await limited.close();
    await short.close();
    await t.close();
    await receiver.stop();
  });

  /** A subscribed gym with one plan and a GOLD beneficiary without visits. */
  async function scene() {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, receiver.url());
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const checkIn = (fields: Record<string, string> = {}) =>
      createMemberCheckIn(t, { identifier: member.cpf, service_provider_code: gym.place.code, ...fields });
    return { gym, member, checkIn };
  }

  const create = (body: unknown) =>
    request(t.http)
      .post('/member/v1/check_ins')
      .set('Authorization', memberAuth(t))
      .send(body as object);
  const get = (id: string) =>
    request(t.http).get(`/member/v1/check_ins/${id}`).set('Authorization', memberAuth(t));
  const cancel = (id: string) =>
    request(t.http).delete(`/member/v1/check_ins/${id}`).set('Authorization', memberAuth(t));
  const confirm = (path: string) => request(t.http).post(path);

  async function rows(): Promise<{ id: string; status: string; token: string }[]> {
    return t.dataSource.query('SELECT id, status, token FROM member_check_ins ORDER BY started_at, id');
  }

  describe('the member API', () => {
    it('creates a pending check-in with its token and deadline, and consumes nothing', async () => {
      const { gym, checkIn } = await scene();
      const created = await checkIn();
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'pending',
        token: expect.stringMatching(/^\d{6}$/),
        started_at: '2026-11-22T07:02:11.412-03:00',
        expires_at: '2026-11-22T08:32:11.412-03:00',
        validated_at: null,
        cancelled_at: null,
        place: { place: gym.place.id, name: gym.place.name, code: gym.place.code },
        plan_code: gym.plan.code,
        member_number: expect.stringMatching(/^[1-9]\d{12}$/),
      });
      expect((await get(created.id).expect(200)).body).toEqual(created.body);
      expect(await visitCount(t)).toBe(0);
    });

    it('takes CHECK_IN_CONFIRMATION_WINDOW_SECONDS for the deadline', async () => {
      short.clock.set(STARTED);
      const gym = await createGym(t);
      const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      const created = await createMemberCheckIn(short, {
        type: 'code',
        identifier: member.code.toLowerCase(),
        service_provider_code: gym.place.code.toLowerCase(),
      });
      expect(created.body.expires_at).toBe('2026-11-22T07:12:11.412-03:00');
    });

    it('sends CHECK_IN_CREATED with the endpoint that confirms it; only a hash of that token is stored', async () => {
      const { gym, member, checkIn } = await scene();
      const created = await checkIn();
      const [event] = await outboxEvents(t, gym.place.id);
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'CHECK_IN_CREATED',
        created_at: '2026-11-22T07:02:11.412-03:00',
        endpoint: expect.stringMatching(
          new RegExp(`^${t.config.publicBaseUrl}/api/v1/webhook_confirmations/[A-Za-z0-9_-]{43}$`),
        ),
        check_in: {
          id: created.id,
          token: created.token,
          status: 'pending',
          started_at: '2026-11-22T07:02:11.412-03:00',
          expires_at: '2026-11-22T08:32:11.412-03:00',
          plan_code: gym.plan.code,
        },
        place: { place: gym.place.id, name: gym.place.name, code: gym.place.code },
        user: {
          name: member.name,
          email: member.email,
          phone: member.phone,
          document_number: member.cpf,
          document_type: 'cpf',
          code: member.code,
        },
      });
      const secret = (event.endpoint as string).split('/').pop() as string;
      const [row] = await t.dataSource.query('SELECT * FROM member_check_ins');
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row.confirmation_token_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('writes no event at a gym without a CHECKIN webhook; the token still works there', async () => {
      const gym = await createGym(t);
      const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      const created = await createMemberCheckIn(t, {
        identifier: member.cpf,
        service_provider_code: gym.place.code,
      });
      expect(await outboxEvents(t)).toEqual([]);
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ type: 'token', identifier: created.token }))
        .expect(204);
      expect(await visitCount(t)).toBe(1);
    });

    it('needs MEMBER_API_TOKEN, never the admin token; and the member token does not open /admin', async () => {
      const { gym, member } = await scene();
      const body = { type: 'cpf', identifier: member.cpf, service_provider_code: gym.place.code };
      expect(
        expectError(
          await request(t.http).post('/member/v1/check_ins').send(body),
          401,
          'invalid_token',
          'Unauthorized',
        ),
      ).toBe('Send the member API token as Authorization: Bearer <MEMBER_API_TOKEN>.');
      const admin = await request(t.http)
        .post('/member/v1/check_ins')
        .set('Authorization', `Bearer ${t.config.adminApiToken}`)
        .send(body);
      expect(expectError(admin, 401, 'invalid_token', 'Unauthorized')).toBe(
        'The member API token is not valid.',
      );
      const panel = await request(t.http)
        .get(`/admin/places/${gym.place.id}`)
        .set('Authorization', memberAuth(t));
      expectError(panel, 401, 'invalid_token', 'Unauthorized');
      expect(await rows()).toEqual([]);
    });

    describe('refuses with the rule that fails, and creates nothing', () => {
      it.each([
        ['no body', (_cpf: string) => ({}), 'invalid_parameter', 'type is required'],
        [
          'a token',
          (_cpf: string) => ({ type: 'token', identifier: '123456' }),
          'invalid_parameter',
          'type must be one of: cpf, code, member_number',
        ],
        [
          'no gym',
          (cpf: string) => ({ type: 'cpf', identifier: cpf }),
          'invalid_parameter',
          'service_provider_code is required',
        ],
        [
          'an unknown gym',
          (cpf: string) => ({ type: 'cpf', identifier: cpf, service_provider_code: 'NOPE0000' }),
          'invalid_gym',
          'No gym has service_provider_code NOPE0000.',
        ],
      ])('%s', async (_what, body, label, detail) => {
        const { member } = await scene();
        expect(expectError(await create(body(member.cpf)), 422, label)).toBe(detail);
        expect(await rows()).toEqual([]);
      });

      it('gym_inactive, gym_with_more_than_one_plan, invalid_plan and plan_not_allowed at the chosen gym', async () => {
        const { gym, member } = await scene();
        const base = { type: 'cpf', identifier: member.cpf, service_provider_code: gym.place.code };
        const premium = await createPlan(t.dataSource, gym.place, { tier: 9 });
        expectError(await create(base), 422, 'gym_with_more_than_one_plan');
        expectError(await create({ ...base, service_provider_plan_code: 'NOPLAN00' }), 422, 'invalid_plan');
        expectError(
          await create({ ...base, service_provider_plan_code: premium.code }),
          422,
          'plan_not_allowed',
        );
        const closed = await createPlace(t, gym.partner, { active: false });
        expectError(await create({ ...base, service_provider_code: closed.place.code }), 422, 'gym_inactive');
        expect(await rows()).toEqual([]);
      });

      it('not_exists, inactive_employee and usage_limit_reached for the beneficiary', async () => {
        const { gym } = await scene();
        const at = { service_provider_code: gym.place.code };
        expectError(await create({ type: 'cpf', identifier: nextCpf(), ...at }), 422, 'not_exists');
        expectError(await create({ type: 'cpf', identifier: '11144477736', ...at }), 422, 'not_exists');
        const inactive = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource), {
          active: false,
        });
        expectError(await create({ type: 'cpf', identifier: inactive.cpf, ...at }), 422, 'inactive_employee');
        const limited = await createBeneficiary(
          t.dataSource,
          await createBenefitPlan(t.dataSource, { monthlyVisitLimit: 1 }),
        );
        t.clock.set('2026-11-02T10:00:00Z');
        await request(t.http)
          .post('/v1/track_usages')
          .set('x-api-key', gym.placeApiKey)
          .send(envelope({ identifier: limited.cpf }))
          .expect(204);
        t.clock.set(STARTED);
        expectError(
          await create({ type: 'cpf', identifier: limited.cpf, ...at }),
          422,
          'usage_limit_reached',
        );
        expect(await rows()).toEqual([]);
      });

      it('already_used here and already_used_other_gym elsewhere, after a recent visit', async () => {
        const { gym, member } = await scene();
        const other = await createPlace(t, gym.partner);
        await createPlan(t.dataSource, other.place);
        await request(t.http)
          .post('/v1/track_usages')
          .set('x-api-key', gym.placeApiKey)
          .send(envelope({ identifier: member.cpf }))
          .expect(204);
        const again = { type: 'cpf', identifier: member.cpf };
        expectError(await create({ ...again, service_provider_code: gym.place.code }), 422, 'already_used');
        expectError(
          await create({ ...again, service_provider_code: other.place.code }),
          422,
          'already_used_other_gym',
        );
        expect(await rows()).toEqual([]);
      });
    });

    it('keeps one live check-in per member: a new one replaces the pending one, which can no longer be confirmed', async () => {
      const { gym, checkIn } = await scene();
      const first = await checkIn();
      const firstPath = await confirmationPath(t, first.id);
      t.clock.advance(MINUTE);
      const second = await checkIn();
      expect((await get(first.id)).body).toMatchObject({
        status: 'cancelled',
        cancelled_at: '2026-11-22T07:03:11.412-03:00',
      });
      expect((await get(second.id)).body.status).toBe('pending');
      const cancelled = (await outboxEvents(t, gym.place.id)).find((e) => e.type === 'CHECK_IN_CANCELLED');
      expect(cancelled?.check_in).toEqual({
        id: first.id,
        token: first.token,
        status: 'cancelled',
        started_at: '2026-11-22T07:02:11.412-03:00',
        expires_at: '2026-11-22T08:32:11.412-03:00',
        cancelled_at: '2026-11-22T07:03:11.412-03:00',
        cancel_reason: 'replaced',
        plan_code: gym.plan.code,
      });
      const refused = await confirm(firstPath);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({
        label: 'check_in_not_available',
        detail: 'This check-in was replaced at 2026-11-22 07:03 by a newer check-in of the member.',
      });
      expect(await visitCount(t)).toBe(0);
    });

    it('cancels a pending check-in once; a second cancel, an unknown id and a malformed id are refused', async () => {
      const { gym, checkIn } = await scene();
      const created = await checkIn();
      t.clock.advance(MINUTE);
      const cancelled = await cancel(created.id).expect(200);
      expect(cancelled.body).toMatchObject({
        id: created.id,
        status: 'cancelled',
        cancelled_at: '2026-11-22T07:03:11.412-03:00',
      });
      const event = (await outboxEvents(t, gym.place.id)).pop();
      expect(event).toMatchObject({ type: 'CHECK_IN_CANCELLED', check_in: { cancel_reason: 'member' } });
      expect(expectError(await cancel(created.id), 422, 'check_in_not_available')).toBe(
        'This check-in was cancelled at 2026-11-22 07:03.',
      );
      expectError(await cancel('5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61'), 404, 'not_found', 'Not Found');
      expectError(await get('../../admin'), 404, 'not_found', 'Not Found');
      expectError(await get('nope'), 404, 'not_found', 'Not Found');
    });

    it('reads a check-in past its deadline as expired, which can no longer be cancelled; the next one takes over', async () => {
      const { gym, checkIn } = await scene();
      const created = await checkIn();
      t.clock.set('2026-11-22T11:32:11.412Z');
      expect((await get(created.id)).body.status).toBe('expired');
      expect(expectError(await cancel(created.id), 422, 'check_in_not_available')).toBe(
        'This check-in expired at 2026-11-22 08:32; there is nothing left to cancel.',
      );
      const next = await checkIn();
      expect((await get(next.id)).body.status).toBe('pending');
      expect(await rows()).toEqual([
        { id: created.id, status: 'expired', token: created.token },
        { id: next.id, status: 'pending', token: next.token },
      ]);
      // An expired check-in is not cancelled: no CHECK_IN_CANCELLED for it.
      expect((await outboxEvents(t, gym.place.id)).map((e) => e.type)).toEqual([
        'CHECK_IN_CREATED',
        'CHECK_IN_CREATED',
      ]);
    });

    it('holds its row’s growth reserve while pending and gives it up however it ends', async () => {
      const { checkIn } = await scene();
      const replaced = await checkIn();
      t.clock.advance(MINUTE);
      const cancelled = await checkIn();
      await cancel(cancelled.id).expect(200);
      const expired = await checkIn();
      t.clock.advance(2 * 60 * MINUTE);
      const validated = await checkIn();
      const pending = await scene().then((other) => other.checkIn());
      await confirm(await confirmationPath(t, validated.id)).expect(200);
      const reserves: { id: string; status: string; reserve: number | null }[] = await t.dataSource.query(
        'SELECT id, status, LENGTH(growth_reserve) AS reserve FROM member_check_ins',
      );
      const of = (id: string) => reserves.find((row) => row.id === id);
      expect(of(replaced.id)).toMatchObject({ status: 'cancelled', reserve: null });
      expect(of(cancelled.id)).toMatchObject({ status: 'cancelled', reserve: null });
      expect(of(expired.id)).toMatchObject({ status: 'expired', reserve: null });
      expect(of(validated.id)).toMatchObject({ status: 'validated', reserve: null });
      expect(Number(of(pending.id)?.reserve)).toBe(16);
    });

    it("draws another token when a pending check-in of the gym holds one, and reuses an expired one's", async () => {
      const gym = await createGym(t);
      const [a, b, c] = await Promise.all(
        [1, 2, 3].map(async () => createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource))),
      );
      const at = { service_provider_code: gym.place.code };
      tokens.set(['111111', '111111', '222222']);
      const first = await createMemberCheckIn(t, { identifier: a.cpf, ...at });
      const second = await createMemberCheckIn(t, { identifier: b.cpf, ...at });
      expect([first.token, second.token]).toEqual(['111111', '222222']);

      // The same token at another gym is no collision.
      const other = await createGym(t);
      tokens.set(['111111']);
      const elsewhere = await createMemberCheckIn(t, {
        identifier: c.cpf,
        service_provider_code: other.place.code,
      });
      expect(elsewhere.token).toBe('111111');

      t.clock.set('2026-11-22T11:32:11.412Z');
      tokens.set(['111111']);
      const fresh = await createMemberCheckIn(t, {
        identifier: (await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource))).cpf,
        ...at,
      });
      expect(fresh.token).toBe('111111');
      expect((await get(first.id)).body.status).toBe('expired');
      // Expired in the database by the creation that took its token, its growth reserve given up.
      const [{ n }] = await t.dataSource.query(
        "SELECT COUNT(*) AS n FROM member_check_ins WHERE status = 'expired' AND growth_reserve IS NULL AND id = ?",
        [first.id],
      );
      expect(Number(n)).toBe(1);

      // The token names the pending check-in, not the expired one that had it before.
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ type: 'token', identifier: '111111' }))
        .expect(204);
      expect((await get(fresh.id)).body.status).toBe('validated');
      expect((await get(first.id)).body.status).toBe('expired');
    });
  });

  describe('the confirmation endpoint', () => {
    it('records the visit: 200 with the JSON string "1", the check-in validated, CHECK_IN_VALIDATED sent', async () => {
      const { gym, member, checkIn } = await scene();
      const created = await checkIn();
      const path = await confirmationPath(t, created.id);
      expect(path).toMatch(/^\/api\/v1\/webhook_confirmations\/[A-Za-z0-9_-]{43}$/);
      t.clock.advance(3 * MINUTE);
      const res = await confirm(path)
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (chunk: Buffer) => (text += chunk.toString()));
          r.on('end', () => done(null, text));
        });
      expect({ status: res.status, body: res.body, type: res.headers['content-type'] }).toEqual({
        status: 200,
        body: '"1"',
        type: 'application/json; charset=utf-8',
      });
      const [visit] = await t.dataSource.query(
        'SELECT beneficiary_id, place_id, plan_id, created_at FROM visits',
      );
      expect(visit).toEqual({
        beneficiary_id: member.id,
        place_id: gym.place.id,
        plan_id: gym.plan.id,
        created_at: new Date('2026-11-22T10:05:11.412Z'),
      });
      expect((await get(created.id)).body).toMatchObject({
        status: 'validated',
        validated_at: '2026-11-22T07:05:11.412-03:00',
      });
      const validated = (await outboxEvents(t, gym.place.id)).pop();
      expect(validated).toMatchObject({
        type: 'CHECK_IN_VALIDATED',
        created_at: '2026-11-22T07:05:11.412-03:00',
        check_in: {
          id: created.id,
          token: created.token,
          status: 'validated',
          validated_at: '2026-11-22T07:05:11.412-03:00',
          plan_code: gym.plan.code,
        },
        user: { document_number: member.cpf },
      });
      expect(validated?.endpoint).toBeUndefined();
    });

    it('answers a second confirmation check_in_not_available, with source as an object, and records nothing', async () => {
      const { checkIn } = await scene();
      const path = await confirmationPath(t, (await checkIn()).id);
      await confirm(path).expect(200);
      const again = await confirm(path);
      expect(again.status).toBe(422);
      expect(again.body).toEqual({
        errors: [
          {
            status: '422',
            title: 'Validation Error',
            label: 'check_in_not_available',
            detail: 'This check-in was already confirmed at 2026-11-22 07:02.',
            source: {
              label: 'check_in_not_available',
              message: 'This check-in was already confirmed at 2026-11-22 07:02.',
            },
            meta: { request_id: again.headers['x-request-id'] },
          },
        ],
      });
      expect(await visitCount(t)).toBe(1);
    });

    it('takes what clients send: a JSON content type with no body, a bearer header, any body, padding', async () => {
      const { checkIn } = await scene();
      const path = await confirmationPath(t, (await checkIn()).id);
      const res = await request(t.http)
        .post(`${path}==`)
        .set('content-type', 'application/json')
        .set('authorization', 'Bearer some-partner-jwt');
      expect(res.status).toBe(200);
      expect(res.body).toBe('1');
      const { checkIn: another } = await scene();
      const next = await confirmationPath(t, (await another()).id);
      await request(t.http).post(next).set('content-type', 'application/json').send('not json').expect(200);
      expect(await visitCount(t)).toBe(2);
    });

    it('answers 404 with message "not found" for unknown and malformed tokens, changing nothing', async () => {
      const { checkIn } = await scene();
      const created = await checkIn();
      const path = await confirmationPath(t, created.id);
      const known = path.split('/').pop() as string;
      const unknown = `${known.slice(0, -1)}${known.endsWith('A') ? 'B' : 'A'}`;
      for (const token of [unknown, 'short', `${known}x`, created.token, '%2E%2E', `${known.slice(1)}+`]) {
        const res = await confirm(`/api/v1/webhook_confirmations/${token}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          message: 'not found',
          errors: [
            {
              status: '404',
              title: 'Not Found',
              label: 'not_found',
              detail: 'No check-in has this confirmation address.',
              source: { label: 'not_found', message: 'No check-in has this confirmation address.' },
              meta: { request_id: res.headers['x-request-id'] },
            },
          ],
        });
      }
      expect((await get(created.id)).body.status).toBe('pending');
      expect(await visitCount(t)).toBe(0);
    });

    it('refuses an expired check-in with check_in_expired_alert, recording nothing', async () => {
      const { checkIn } = await scene();
      const created = await checkIn();
      const path = await confirmationPath(t, created.id);
      t.clock.set('2026-11-22T11:32:11.411Z');
      t.clock.advance(1);
      const res = await confirm(path);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        label: 'check_in_expired_alert',
        detail: 'This check-in expired at 2026-11-22 08:32; the member must check in again in the app.',
        source: { label: 'check_in_expired_alert' },
      });
      expect(await visitCount(t)).toBe(0);
      expect((await get(created.id)).body.status).toBe('expired');
    });

    it('evaluates the rules again: what changed since the check-in was made is refused and it stays pending', async () => {
      const { member, checkIn } = await scene();
      const path = await confirmationPath(t, (await checkIn()).id);
      const other = await createGym(t);
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', other.placeApiKey)
        .send(envelope({ identifier: member.cpf }))
        .expect(204);
      expect((await confirm(path)).body.errors[0].label).toBe('already_used_other_gym');

      t.clock.set('2026-11-22T12:00:00Z');
      await t.dataSource.query('UPDATE beneficiaries SET active = 0 WHERE id = ?', [member.id]);
      const late = await scene();
      const latePath = await confirmationPath(t, (await late.checkIn()).id);
      await t.dataSource.query('UPDATE beneficiaries SET active = 0 WHERE id = ?', [late.member.id]);
      expect((await confirm(latePath)).body.errors[0].label).toBe('inactive_employee');
      await t.dataSource.query('UPDATE beneficiaries SET active = 1 WHERE id = ?', [late.member.id]);
      await deletePlan(t.dataSource, late.gym.plan);
      expect((await confirm(latePath)).body.errors[0].label).toBe('invalid_plan');
      await t.dataSource.query('UPDATE places SET active = 0 WHERE id = ?', [late.gym.place.id]);
      expect((await confirm(latePath)).body.errors[0].label).toBe('gym_inactive');

      expect(await visitCount(t)).toBe(1);
      const statuses: { status: string }[] = await t.dataSource.query('SELECT status FROM member_check_ins');
      expect(statuses.map((s) => s.status)).toEqual(['pending', 'pending']);
    });

    it('speaks the reader’s language, labels unchanged', async () => {
      const { checkIn } = await scene();
      const path = await confirmationPath(t, (await checkIn()).id);
      await confirm(path).expect(200);
      const answers = await Promise.all(
        ['pt-BR', 'es', 'en'].map((language) => confirm(path).set('accept-language', language)),
      );
      expect(answers.map((res) => [res.body.errors[0].label, res.body.errors[0].detail])).toEqual([
        ['check_in_not_available', 'Este check-in já foi confirmado em 2026-11-22 07:02.'],
        ['check_in_not_available', 'Este check-in ya fue confirmado el 2026-11-22 07:02.'],
        ['check_in_not_available', 'This check-in was already confirmed at 2026-11-22 07:02.'],
      ]);
    });
  });

  describe('type "token" on the check-in routes', () => {
    const tokenBody = (token: string, extra: Record<string, string> = {}) =>
      envelope({ type: 'token', identifier: token, ...extra });

    it('validate answers 204 and writes nothing; register confirms it once; the code route names the member', async () => {
      const { gym, member, checkIn } = await scene();
      const created = await checkIn();
      const key = (path: string) => request(t.http).post(path).set('x-api-key', gym.placeApiKey);
      await key('/v1/track_usages/validate')
        .send({ type: 'token', identifier: created.token, service_provider_code: gym.place.code })
        .expect(204);
      expect(
        (await key('/v1/track_usages/beneficiaries/code').send({ type: 'token', identifier: created.token }))
          .body.code,
      ).toBe(member.code);
      expect((await get(created.id)).body.status).toBe('pending');
      expect(await visitCount(t)).toBe(0);

      t.clock.advance(MINUTE);
      await key('/v1/track_usages')
        .send(
          tokenBody(`${created.token.slice(0, 3)} ${created.token.slice(3)}`, {
            service_provider_code: gym.place.code,
          }),
        )
        .expect(204);
      expect(await visitCount(t)).toBe(1);
      expect((await get(created.id)).body.status).toBe('validated');
      expect((await outboxEvents(t, gym.place.id)).map((e) => e.type)).toEqual([
        'CHECK_IN_CREATED',
        'CHECK_IN_VALIDATED',
      ]);
      // Sent again: the member has a visit here (already_used); the code route speaks of the check-in.
      for (const path of ['/v1/track_usages', '/v1/track_usages/validate']) {
        expect(expectError(await key(path).send(tokenBody(created.token)), 422, 'already_used')).toBe(
          'A check-in at this gym was recorded at 07:03; try again after 08:33.',
        );
      }
      expectError(
        await key('/v1/track_usages/beneficiaries/code').send(tokenBody(created.token)),
        422,
        'check_in_not_available',
      );
      const endpoint = await confirmationPath(t, created.id);
      expect((await confirm(endpoint)).body.errors[0].label).toBe('check_in_not_available');
      expect(await visitCount(t)).toBe(1);
    });

    it('uses the check-in’s own plan, whatever plan code is sent with the token', async () => {
      const { gym, checkIn } = await scene();
      const created = await checkIn();
      await createPlan(t.dataSource, gym.place, { tier: 1 });
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(tokenBody(created.token, { service_provider_plan_code: 'ANYPLAN1' }))
        .expect(204);
      const [visit] = await t.dataSource.query('SELECT plan_id FROM visits');
      expect(visit.plan_id).toBe(gym.plan.id);
    });

    it('unknown, another gym’s, expired and malformed tokens are refused and change nothing', async () => {
      const { gym, checkIn } = await scene();
      const created = await checkIn();
      const other = await createGym(t);
      const register = (key: string, body: object) =>
        request(t.http).post('/v1/track_usages').set('x-api-key', key).send(body);
      const unknown = created.token === '000000' ? '000001' : '000000';
      expect(expectError(await register(gym.placeApiKey, tokenBody(unknown)), 422, 'not_exists')).toBe(
        `No check-in at this gym has token ${unknown}.`,
      );
      expectError(await register(other.placeApiKey, tokenBody(created.token)), 422, 'not_exists');
      expect(expectError(await register(gym.placeApiKey, tokenBody('12345')), 422, 'invalid_parameter')).toBe(
        'data.attributes.identifier must be a check-in token of 6 digits',
      );
      expectError(
        await register(
          gym.placeApiKey,
          tokenBody(created.token, { service_provider_code: other.place.code }),
        ),
        422,
        'invalid_gym',
      );
      t.clock.set('2026-11-22T11:32:11.412Z');
      expectError(await register(gym.placeApiKey, tokenBody(created.token)), 422, 'check_in_expired_alert');
      expect(await visitCount(t)).toBe(0);
      expect((await rows()).map((r) => r.status)).toEqual(['pending']);
    });

    it('answers a repeat of a confirmed token at its gym already_used while the visit is recent, check_in_not_available once it is not, or when cancelled or replaced', async () => {
      const { gym, member, checkIn } = await scene();
      const other = await createGym(t);
      const register = (token: string, key = gym.placeApiKey) =>
        request(t.http).post('/v1/track_usages').set('x-api-key', key).send(tokenBody(token));
      const confirmed = await checkIn();
      await confirm(await confirmationPath(t, confirmed.id)).expect(200);
      t.clock.advance(10 * MINUTE);
      for (const language of ['en', 'pt-BR']) {
        const res = await register(confirmed.token).set('accept-language', language);
        expectError(res, 422, 'already_used');
      }
      expect(expectError(await register(confirmed.token), 422, 'already_used')).toBe(
        'A check-in at this gym was recorded at 07:02; try again after 08:32.',
      );
      expectError(await register(confirmed.token, other.placeApiKey), 422, 'not_exists');
      // The window is the recent-visit window of rule 8 (90 minutes): past it, the check-in's own state.
      t.clock.set('2026-11-22T11:32:11.412Z');
      expect(expectError(await register(confirmed.token), 422, 'check_in_not_available')).toBe(
        'This check-in was already confirmed at 2026-11-22 07:02.',
      );

      const replaced = await checkIn();
      const replacing = await checkIn();
      expectError(await register(replaced.token), 422, 'check_in_not_available');
      await cancel(replacing.id).expect(200);
      expectError(await register(replacing.token), 422, 'check_in_not_available');
      const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM visits WHERE beneficiary_id = ?', [
        member.id,
      ]);
      expect(Number(n)).toBe(1);
    });

    it('replays an Idempotency-Key register of a token and records nothing more', async () => {
      const { gym, checkIn } = await scene();
      const created = await checkIn();
      const register = () =>
        request(t.http)
          .post('/v1/track_usages')
          .set('x-api-key', gym.placeApiKey)
          .set('Idempotency-Key', 'desk-42')
          .send(tokenBody(created.token));
      await register().expect(204);
      await register().expect(204);
      expect(await visitCount(t)).toBe(1);
    });
  });

  describe('failed token look-ups per key', () => {
    it('answer 429 with Retry-After once over the limit, on every token route, until the minute ends', async () => {
      limited.clock.set('2026-11-22T10:02:15.000Z');
      const gym = await createGym(t);
      const bystander = await createGym(t);
      const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      const created = await createMemberCheckIn(limited, {
        identifier: member.cpf,
        service_provider_code: gym.place.code,
      });
      const unknown = created.token === '999999' ? '999998' : '999999';
      const send = (path: string, token: string, key = gym.placeApiKey) =>
        request(limited.http).post(path).set('x-api-key', key).send({ type: 'token', identifier: token });
      for (let i = 0; i < 3; i++)
        expectError(await send('/v1/track_usages/validate', unknown), 422, 'not_exists');
      for (const path of [
        '/v1/track_usages/validate',
        '/v1/track_usages',
        '/v1/track_usages/beneficiaries/code',
      ]) {
        const res = await send(path, created.token);
        expect(expectError(res, 429, 'rate_limited', 'Too Many Requests')).toBe(
          'Too many check-in tokens that match nothing were sent with this key; try again in 45 seconds.',
        );
        expect(res.headers['retry-after']).toBe('45');
      }
      // By CPF the key works as ever, and another key is not limited.
      await request(limited.http)
        .post('/v1/track_usages/validate')
        .set('x-api-key', gym.placeApiKey)
        .send({ type: 'cpf', identifier: member.cpf })
        .expect(204);
      expectError(await send('/v1/track_usages/validate', unknown, bystander.placeApiKey), 422, 'not_exists');

      limited.clock.set('2026-11-22T10:03:00.000Z');
      await send('/v1/track_usages', created.token).expect(204);
      expect(await visitCount(t)).toBe(1);
    });
  });

  describe('the known clients’ base paths', () => {
    it('answers the check-in and app routes under /service and /api too', async () => {
      const { gym, member, checkIn } = await scene();
      const key = (path: string) => request(t.http).post(path).set('x-api-key', gym.placeApiKey);
      await key('/api/v1/track_usages/validate').send({ type: 'cpf', identifier: member.cpf }).expect(204);
      expect(
        (
          await key('/service/v1/track_usages/beneficiaries/code').send({
            type: 'cpf',
            identifier: member.cpf,
          })
        ).body.code,
      ).toBe(member.code);
      expect(
        (await key('/api/partner_app/v1/validate').send({ employee_document_number: member.cpf })).body
          .employee_data.name,
      ).toBe(member.name);
      await key('/service/partner_app/v1/validate')
        .send({ employee_document_number: member.cpf })
        .expect(200);
      const created = await checkIn();
      await key('/service/v1/track_usages').send(tokenEnvelope(created.token)).expect(204);
      expect(await visitCount(t)).toBe(1);
      expectError(await key('/api/v1/track_usages').send({}), 422, 'invalid_parameter');
      expectError(
        await request(t.http).post('/service/v1/track_usages').send({}),
        401,
        'invalid_api_key',
        'Unauthorized',
      );
    });

    it('leaves every other route where it is', async () => {
      for (const path of [
        '/api/partner/auth',
        '/service/partner/auth',
        '/service/admin/partners',
        '/api/member/v1/check_ins',
      ]) {
        expectError(await request(t.http).post(path).send({}), 404, 'not_found', 'Not Found');
      }
    });
  });

  describe('the control panel', () => {
    const admin = (path: string) =>
      request(t.http).get(path).set('Authorization', `Bearer ${t.config.adminApiToken}`);

    it("lists a place's check-ins newest first with their status, filtered and paged", async () => {
      const { gym, member, checkIn } = await scene();
      const first = await checkIn();
      t.clock.advance(MINUTE);
      const second = await checkIn();
      await request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(tokenEnvelope(second.token))
        .expect(204);
      t.clock.advance(MINUTE);
      const other = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
      const third = await createMemberCheckIn(t, {
        identifier: other.cpf,
        service_provider_code: gym.place.code,
      });
      t.clock.advance(MINUTE);
      const fourth = await createMemberCheckIn(t, {
        identifier: (await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource))).cpf,
        service_provider_code: gym.place.code,
      });

      const all = await admin(`/admin/places/${gym.place.id}/check-ins`).expect(200);
      expect(all.body).toEqual({
        data: [
          {
            id: fourth.id,
            status: 'pending',
            token: fourth.token,
            beneficiary_code: expect.any(String),
            beneficiary_name: 'Maria Silva',
            started_at: '2026-11-22T07:05:11.412-03:00',
            expires_at: '2026-11-22T08:35:11.412-03:00',
            validated_at: null,
          },
          expect.objectContaining({ id: third.id, status: 'pending', beneficiary_code: other.code }),
          {
            id: second.id,
            status: 'validated',
            beneficiary_code: member.code,
            beneficiary_name: member.name,
            started_at: '2026-11-22T07:03:11.412-03:00',
            expires_at: '2026-11-22T08:33:11.412-03:00',
            validated_at: '2026-11-22T07:03:11.412-03:00',
          },
          expect.objectContaining({ id: first.id, status: 'cancelled' }),
        ],
        page: 1,
        page_size: 50,
        total: 4,
      });
      expect(all.body.data[1].token).toBe(third.token);
      expect(all.body.data[2]).not.toHaveProperty('token');

      const pending = await admin(
        `/admin/places/${gym.place.id}/check-ins?status=pending&page_size=1&page=2`,
      ).expect(200);
      expect(pending.body).toMatchObject({ data: [{ id: third.id }], page: 2, page_size: 1, total: 2 });

      t.clock.set('2026-11-22T11:34:30Z');
      const expired = await admin(`/admin/places/${gym.place.id}/check-ins?status=expired`).expect(200);
      expect(expired.body.data.map((c: { id: string }) => c.id)).toEqual([third.id]);
      expect(expired.body.data[0]).not.toHaveProperty('token');
    });

    it('refuses an unknown place, a bad filter and the member token', async () => {
      const { gym } = await scene();
      expectError(
        await admin('/admin/places/5b1f3c2e-8d4a-4c6b-9e1f-000000000000/check-ins'),
        404,
        'not_found',
        'Not Found',
      );
      expect(
        expectError(
          await admin(`/admin/places/${gym.place.id}/check-ins?status=done`),
          422,
          'invalid_parameter',
        ),
      ).toBe('status must be one of: pending, validated, expired, cancelled');
      expectError(
        await admin(`/admin/places/${gym.place.id}/check-ins?page_size=500`),
        422,
        'invalid_parameter',
      );
      const member = await request(t.http)
        .get(`/admin/places/${gym.place.id}/check-ins`)
        .set('Authorization', memberAuth(t));
      expectError(member, 401, 'invalid_token', 'Unauthorized');
    });
  });

  describe('the docs', () => {
    it('document every new route with examples, the aliases, the member token and the new labels', async () => {
      const doc = (await request(t.http).get('/docs-json').expect(200)).body;
      expect(doc.components.securitySchemes.member).toMatchObject({ type: 'http', scheme: 'bearer' });
      const create = doc.paths['/member/v1/check_ins'].post;
      expect(create.security).toEqual([{ member: [] }]);
      expect(Object.keys(create.requestBody.content['application/json'].examples)).toEqual([
        'byCpf',
        'byCodeWithPlan',
      ]);
      expect(create.responses['201']).toBeDefined();
      expect(create.responses['422'].content['application/json'].examples.usage_limit_reached).toBeDefined();
      const cancel = doc.paths['/member/v1/check_ins/{id}'].delete;
      expect(
        cancel.responses['422'].content['application/json'].examples.check_in_not_available.value,
      ).toEqual({
        errors: [expect.objectContaining({ label: 'check_in_not_available', source: [expect.any(Object)] })],
      });

      const confirmation = doc.paths['/api/v1/webhook_confirmations/{token}'].post;
      expect(confirmation.security).toEqual([]);
      expect(confirmation.responses['200'].content['application/json'].example).toBe('1');
      expect(confirmation.responses['404'].content['application/json'].examples.not_found.value).toEqual({
        message: 'not found',
        errors: [
          expect.objectContaining({
            label: 'not_found',
            source: { label: 'not_found', message: expect.any(String) },
          }),
        ],
      });
      const expired =
        confirmation.responses['422'].content['application/json'].examples.check_in_expired_alert.value;
      expect(expired.errors[0].source).toEqual({
        label: 'check_in_expired_alert',
        message: expect.any(String),
      });
      expect(
        confirmation.responses['500'].content['application/json'].examples.internal_error.value.errors[0]
          .source,
      ).toEqual(expect.objectContaining({ label: 'internal_error' }));

      const register = doc.paths['/v1/track_usages'].post;
      expect(register['x-aliases']).toEqual(['/service/v1/track_usages', '/api/v1/track_usages']);
      expect(register.description).toContain(
        'Also answers at `/service/v1/track_usages` and `/api/v1/track_usages`.',
      );
      expect(register.requestBody.content['application/json'].examples.envelopeToken).toBeDefined();
      expect(Object.keys(register.responses['422'].content['application/json'].examples)).toEqual(
        expect.arrayContaining(['check_in_not_available', 'check_in_expired_alert']),
      );
      expect(register.responses['429']).toBeDefined();
      expect(doc.paths['/partner_app/v1/validate'].post['x-aliases']).toEqual([
        '/service/partner_app/v1/validate',
        '/api/partner_app/v1/validate',
      ]);
      expect(doc.paths['/service/v1/track_usages']).toBeUndefined();
      expect(doc.paths['/partner/auth'].post['x-aliases']).toBeUndefined();
      expect(doc.paths['/admin/places/{id}/check-ins'].get.responses['200']).toBeDefined();
    });
  });
});

function tokenEnvelope(token: string) {
  return envelope({ type: 'token', identifier: token });
}
