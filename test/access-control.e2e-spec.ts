import request from 'supertest';
import { DataSource } from 'typeorm';
import { hashKey } from '../src/common/crypto/key-vault';
import { buildDataSourceOptions } from '../src/database/data-source';
import { runStatement } from '../src/database/prepared-statement';
import { AccessControlRepository } from '../src/modules/access-control/access-control.repository';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import {
  confirmationPath,
  createMemberCheckIn,
  memberAuth,
  outboxEvents,
  subscribeCheckIns,
  visitCount,
} from './factories/member-check-ins.factory';
import { createGym, createPlace } from './factories/partners.factory';
import { partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';
import { readValidation, verifyGympassSignature, WellhubClient } from './support/wellhub-client';

const SECRET = 'gym-system-shared-secret';
const adminAuth = (t: TestApp) => `Bearer ${t.config.adminApiToken}`;
const MINUTE = 60_000;

describe('Wellhub-compatible access control (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({ ACCESS_SANDBOX: 'true' });
  });
  beforeEach(async () => {
    t.clock.reset();
    receiver.reset();
    await truncateAll(t.dataSource);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  /** A gym with one plan, its gym_id and product_id, and a member with a benefit plan. */
  async function gymAndMember(benefitPlan = {}) {
    const gym = await createGym(t);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource, benefitPlan));
    return { ...gym, gymId: Number(gym.place.gymId), member, memberNumber: String(member.memberNumber) };
  }

  /** The member's app check-in at the gym, made through the member API by member number. */
  function checkIn(member: { memberNumber: string }, placeCode: string) {
    return createMemberCheckIn(t, {
      type: 'member_number',
      identifier: member.memberNumber,
      service_provider_code: placeCode,
    });
  }

  describe('identities', () => {
    it('gives every beneficiary a distinct 13-digit member number, and gyms and plans their numbers', async () => {
      const { place, plan, member } = await gymAndMember();
      const other = await createBeneficiary(t.dataSource, null);
      expect(String(member.memberNumber)).toMatch(/^[1-9]\d{12}$/);
      expect(String(other.memberNumber)).toMatch(/^[1-9]\d{12}$/);
      expect(other.memberNumber).not.toEqual(member.memberNumber);
      expect(place.gymId).toBeGreaterThanOrEqual(100001);

      const beneficiary = await request(t.http)
        .get(`/admin/beneficiaries/${member.cpf}`)
        .set('Authorization', adminAuth(t))
        .expect(200);
      expect(beneficiary.body.member_number).toBe(String(member.memberNumber));
      const shown = await request(t.http)
        .get(`/admin/places/${place.id}`)
        .set('Authorization', adminAuth(t))
        .expect(200);
      expect(shown.body.gym_id).toBe(place.gymId);
      expect(shown.body.plans).toEqual([
        expect.objectContaining({ code: plan.code, product_id: plan.id + 100000 }),
      ]);
    });

    it('makes a member check-in by member number, and shows the number in the member API', async () => {
      const { place, memberNumber } = await gymAndMember();
      const created = await checkIn({ memberNumber }, place.code);
      expect(created.body.member_number).toBe(memberNumber);
      const read = await request(t.http)
        .get(`/member/v1/check_ins/${created.id}`)
        .set('Authorization', memberAuth(t))
        .expect(200);
      expect(read.body.member_number).toBe(memberNumber);
      const unknown = await request(t.http)
        .post('/member/v1/check_ins')
        .set('Authorization', memberAuth(t))
        .send({ type: 'member_number', identifier: '1000000000000', service_provider_code: place.code });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors[0].label).toBe('not_exists');
    });
  });

  describe('credentials', () => {
    it('answers 401 in that platform shape for a missing or unknown key', async () => {
      const { gymId, memberNumber } = await gymAndMember();
      for (const test of [
        request(t.http).post('/access/v1/validate'),
        request(t.http).post('/access/v1/validate').set('Authorization', 'Bearer nope'),
        request(t.http).get('/v1/systems/gyms').set('X-Api-Key', 'nope'),
      ]) {
        const res = await test.set('X-Gym-Id', String(gymId)).send({ gympass_id: memberNumber });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          metadata: { total: 0, errors: 1 },
          errors: [
            { message: expect.stringMatching(/\S/), key: 'auth.unauthorized', label: 'invalid_api_key' },
          ],
        });
      }
    });

    it('answers 403 {Message} for a gym the key does not cover, no such gym, or a header that contradicts the path', async () => {
      const mine = await gymAndMember();
      const theirs = await createGym(t);
      const client = new WellhubClient(t.http, { key: mine.partnerApiKey });
      for (const gymId of [Number(theirs.place.gymId), 999999]) {
        const { res, outcome } = await client.validate(gymId, mine.memberNumber);
        expect(outcome).toBe('credentials');
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ Message: expect.stringMatching(/\S/) });
      }
      const mismatch = await request(t.http)
        .get(`/v1/systems/gyms/${mine.gymId}/webhooks`)
        .set('Authorization', `Bearer ${mine.partnerApiKey}`)
        .set('X-Gym-Id', String(theirs.place.gymId));
      expect(mismatch.status).toBe(403);
      const placeKey = new WellhubClient(t.http, { key: mine.placeApiKey });
      expect((await placeKey.webhooks(Number(theirs.place.gymId))).status).toBe(403);
    });

    it('validates with a key shaped as a place key by what it is, not by its shape', async () => {
      const mine = await gymAndMember();
      const theirs = await createGym(t);
      const validate = (key: string, gymId: number) =>
        new WellhubClient(t.http, { key }).validate(gymId, mine.memberNumber);
      // The place key of another gym, and a place-shaped key that is no one's.
      expect((await validate(theirs.placeApiKey, mine.gymId)).res.status).toBe(403);
      expect((await validate('plk_nobodys', mine.gymId)).res.status).toBe(401);
      // A partner's key that happens to have a place key's shape still reaches the partner's gyms.
      const shaped = 'plk_partnersKeyOfAnOlderMint';
      await t.dataSource.query('UPDATE partners SET api_key_hash = ? WHERE id = ?', [
        hashKey(shaped),
        mine.partner.id,
      ]);
      await checkIn(mine, mine.place.code);
      expect((await validate(shaped, mine.gymId)).outcome).toBe('validated');
      // The gym's own place key, rotated: the old one stops at once.
      await request(t.http)
        .post(`/admin/places/${mine.place.id}/api-key`)
        .set('Authorization', adminAuth(t))
        .expect(201);
      expect((await validate(mine.placeApiKey, mine.gymId)).res.status).toBe(401);
    });

    it('refuses the key before it reads the body of a validation', async () => {
      const mine = await gymAndMember();
      const theirs = await createGym(t);
      const invalid = { gympass_id: '12' };
      const validate = (key: string, gymId: number) =>
        request(t.http)
          .post('/access/v1/validate')
          .set('Authorization', `Bearer ${key}`)
          .set('X-Gym-Id', String(gymId))
          .send(invalid);
      expect((await validate('nope', mine.gymId)).status).toBe(401);
      expect((await validate(mine.partnerApiKey, Number(theirs.place.gymId))).status).toBe(403);
      expect((await validate(mine.placeApiKey, mine.gymId)).status).toBe(400);
    });

    it('lists the gyms a partner key covers, and the one a place key covers', async () => {
      const { partner, gymId, placeApiKey, partnerApiKey } = await gymAndMember();
      const second = await createPlace(t, partner, { active: false });
      await createGym(t);
      const byPartner = await new WellhubClient(t.http, { key: partnerApiKey }).gyms().expect(200);
      expect(byPartner.body).toEqual({
        gyms: [
          { id: gymId, enabled: true },
          { id: Number(second.place.gymId), enabled: false },
        ],
      });
      const byPlace = await new WellhubClient(t.http, { key: placeApiKey, as: 'x-api-key' })
        .gyms()
        .expect(200);
      expect(byPlace.body).toEqual({ gyms: [{ id: gymId, enabled: true }] });
    });
  });

  describe('the checkin webhook', () => {
    it('signs the exact bytes sent; additional_data adds email and phone; the delivery log and redelivery show it', async () => {
      const { place, plan, gymId, member, memberNumber, placeApiKey, partnerApiKey } = await gymAndMember();
      const client = new WellhubClient(t.http, { key: placeApiKey });
      await client
        .subscribe(gymId, [
          { event: 'checkin', url: receiver.url('/wellhub'), secret: SECRET, additional_data: true },
        ])
        .expect(204);
      expect((await client.webhooks(gymId).expect(200)).body).toEqual({
        webhooks: [{ event: 'checkin', url: receiver.url('/wellhub') }],
      });
      const created = await checkIn({ memberNumber }, place.code);
      await eventually(() => receiver.received.length === 1);
      const [arrived] = receiver.received;
      expect(arrived.path).toBe('/wellhub');
      expect(
        verifyGympassSignature(arrived.body, arrived.headers['x-gympass-signature'] as string, SECRET),
      ).toBe(true);
      expect(arrived.headers['x-gympass-signature']).toMatch(/^[0-9A-F]{40}$/);
      expect(
        verifyGympassSignature(arrived.body, `0x${arrived.headers['x-gympass-signature']}`, SECRET),
      ).toBe(true);
      expect(
        verifyGympassSignature(`${arrived.body} `, arrived.headers['x-gympass-signature'] as string, SECRET),
      ).toBe(false);
      const startedAt = Math.floor(Date.parse(created.body.started_at as string) / 1000);
      expect(JSON.parse(arrived.body)).toEqual({
        event_type: 'checkin',
        event_data: {
          user: {
            unique_token: memberNumber,
            first_name: 'Maria',
            last_name: 'Silva',
            email: member.email,
            phone_number: member.phone,
          },
          gym: { id: gymId, title: place.name, product: { id: plan.id + 100000, description: plan.name } },
          timestamp: startedAt,
          expires_at: startedAt + t.config.checkInConfirmationWindowSeconds,
        },
      });

      const auth = `Bearer ${await partnerToken(t.http, { placeApiKey, partnerApiKey })}`;
      // The receiver has the request before the service has written its outcome.
      const deliveries = async () =>
        (await request(t.http).get('/partner/webhook/deliveries').set('Authorization', auth).expect(200)).body
          .data as { id: string; event_type: string; status: string }[];
      await eventually(
        async () => (await deliveries())[0]?.status === 'delivered',
        15_000,
        'the outcome written',
      );
      const [delivery] = await deliveries();
      expect(delivery).toEqual(expect.objectContaining({ event_type: 'checkin', status: 'delivered' }));
      await request(t.http)
        .post(`/partner/webhook/deliveries/${delivery.id}/redeliver`)
        .set('Authorization', auth)
        .expect(202);
      await eventually(() => receiver.received.length === 2);
      expect(receiver.received[1].body).toBe(arrived.body);
      expect(
        verifyGympassSignature(
          receiver.received[1].body,
          receiver.received[1].headers['x-gympass-signature'] as string,
          SECRET,
        ),
      ).toBe(true);
    });

    it('keeps the TotalPass-format subscription beside it, and refuses unknown events and private URLs by key', async () => {
      const { place, gymId, memberNumber, placeApiKey, partnerApiKey } = await gymAndMember();
      await subscribeCheckIns(t, { placeApiKey, partnerApiKey }, receiver.url('/totalpass'));
      const client = new WellhubClient(t.http, { key: partnerApiKey });
      const unknown = await client.subscribe(gymId, [
        { event: 'booking-requested', url: receiver.url(), secret: SECRET },
      ]);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].key).toBe('webhook.invalid_event');
      const blank = await client.subscribe(gymId, [{ event: 'checkin', url: receiver.url(), secret: '' }]);
      expect(blank.body.errors[0].key).toBe('webhook.invalid_secret');
      await client
        .subscribe(gymId, [{ event: 'checkin', url: receiver.url('/wellhub'), secret: SECRET }])
        .expect(204);
      await checkIn({ memberNumber }, place.code);
      await eventually(() => receiver.received.length === 2);
      const byPath = Object.fromEntries(receiver.received.map((r) => [r.path, r]));
      expect(JSON.parse(byPath['/totalpass'].body).type).toBe('CHECK_IN_CREATED');
      expect(byPath['/totalpass'].headers['webhook-signature']).toBeDefined();
      const wellhub = JSON.parse(byPath['/wellhub'].body);
      expect(wellhub.event_type).toBe('checkin');
      expect(wellhub.event_data.user).toEqual({
        unique_token: memberNumber,
        first_name: 'Maria',
        last_name: 'Silva',
      });
      // /partner/webhook/get lists its own subscription only.
      const totalpass = await request(t.http)
        .get('/partner/webhook/get')
        .set('Authorization', `Bearer ${await partnerToken(t.http, { placeApiKey, partnerApiKey })}`)
        .expect(200);
      expect(totalpass.body.webhooks.map((w: { webhook_type: string }) => w.webhook_type)).toEqual([
        'CHECKIN',
      ]);
      // An empty list removes the Wellhub-format subscription only.
      await client.subscribe(gymId, []).expect(204);
      expect((await client.webhooks(gymId).expect(200)).body).toEqual({ webhooks: [] });
    });
  });

  describe('POST /access/v1/validate', () => {
    it('validates with Bearer + X-Gym-Id: one visit, then checkin.already.validated, the custom code stored', async () => {
      const { place, plan, gymId, member, memberNumber, placeApiKey } = await gymAndMember();
      await checkIn({ memberNumber }, place.code);
      const client = new WellhubClient(t.http, { key: placeApiKey });
      const { res, outcome } = await client.validate(gymId, memberNumber, 'RFID-7');
      expect(outcome).toBe('validated');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        metadata: { total: 1, errors: 0 },
        results: {
          user: { gympass_id: memberNumber },
          gym: { id: gymId, product: { id: plan.id + 100000, description: plan.name } },
          validated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        },
      });
      const repeat = await client.validate(gymId, memberNumber);
      expect(repeat.outcome).toBe('already-validated');
      expect(repeat.res.status).toBe(400);
      expect(repeat.res.body.errors[0]).toEqual(
        expect.objectContaining({ key: 'checkin.already.validated', label: 'check_in_not_available' }),
      );
      expect(await visitCount(t)).toBe(1);
      const visits = await request(t.http)
        .get(`/admin/beneficiaries/${member.cpf}/visits`)
        .set('Authorization', adminAuth(t))
        .expect(200);
      expect(visits.body.data).toEqual([
        expect.objectContaining({ place_id: place.id, custom_code: 'RFID-7' }),
      ]);
    });

    it('validates with the partner key in the legacy X-Api-Key header', async () => {
      const { place, gymId, memberNumber, partnerApiKey } = await gymAndMember();
      await checkIn({ memberNumber }, place.code);
      const client = new WellhubClient(t.http, { key: partnerApiKey, as: 'x-api-key' });
      expect((await client.validate(gymId, memberNumber)).outcome).toBe('validated');
      expect(await visitCount(t)).toBe(1);
    });

    it('confirms the same check-in as its endpoint: after one, the other finds it validated', async () => {
      const gym = await gymAndMember();
      await subscribeCheckIns(t, gym, receiver.url());
      const created = await checkIn(gym, gym.place.code);
      await request(t.http)
        .post(await confirmationPath(t, created.id))
        .expect(200);
      const client = new WellhubClient(t.http, { key: gym.placeApiKey });
      expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('already-validated');
      expect(await visitCount(t)).toBe(1);
      // And the validation sent CHECK_IN_VALIDATED as the endpoint does.
      const other = await gymAndMember();
      await subscribeCheckIns(t, other, receiver.url());
      await checkIn(other, other.place.code);
      expect(
        (
          await new WellhubClient(t.http, { key: other.placeApiKey }).validate(
            other.gymId,
            other.memberNumber,
          )
        ).outcome,
      ).toBe('validated');
      const types = (await outboxEvents(t, other.place.id)).map((event) => event.type);
      expect(types).toEqual(['CHECK_IN_CREATED', 'CHECK_IN_VALIDATED']);
    });

    it('10 racing validations of one check-in: one 200, nine checkin.already.validated, one visit', async () => {
      const { place, gymId, memberNumber, placeApiKey } = await gymAndMember();
      await checkIn({ memberNumber }, place.code);
      const client = new WellhubClient(t.http, { key: placeApiKey });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => client.validate(gymId, memberNumber)),
      );
      const outcomes = results.map((result) => result.outcome).sort();
      expect(outcomes).toEqual(
        ['already-validated', ...Array(8).fill('already-validated'), 'validated'].sort(),
      );
      expect(await visitCount(t)).toBe(1);
    });

    it('answers every key of the contract, in pt-BR, es and en, with the same key and label', async () => {
      const answers: Record<string, { status: number; key: string; label: string; message: string }[]> = {};
      for (const language of ['pt-BR', 'es', 'en']) {
        await truncateAll(t.dataSource);
        const seen = (answers[language] = [] as (typeof answers)[string]);
        const record = (res: request.Response) => seen.push({ status: res.status, ...res.body.errors[0] });
        const gym = await gymAndMember();
        const client = new WellhubClient(t.http, { key: gym.placeApiKey }, language);
        // 10:00 in São Paulo: the expired check-in below must still have started today when it is validated.
        t.clock.set('2026-11-23T13:00:00Z');
        // notfound: no check-in made.
        record((await client.validate(gym.gymId, gym.memberNumber)).res);
        // invalid: not 13 digits; custom_code too long.
        record((await client.validate(gym.gymId, '12345')).res);
        record((await client.validate(gym.gymId, gym.memberNumber, 'X'.repeat(14))).res);
        // canceled: the member cancels it.
        const cancelled = await checkIn(gym, gym.place.code);
        await request(t.http)
          .delete(`/member/v1/check_ins/${cancelled.id}`)
          .set('Authorization', memberAuth(t))
          .expect(200);
        record((await client.validate(gym.gymId, gym.memberNumber)).res);
        // expired: past its confirmation deadline.
        t.clock.advance(MINUTE);
        await checkIn(gym, gym.place.code);
        t.clock.advance(t.config.checkInConfirmationWindowSeconds * 1000 + MINUTE);
        record((await client.validate(gym.gymId, gym.memberNumber)).res);
        // already validated.
        await checkIn(gym, gym.place.code);
        expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('validated');
        record((await client.validate(gym.gymId, gym.memberNumber)).res);
        t.clock.reset();
      }
      const shape = (language: string) =>
        answers[language].map(({ status, key, label }) => ({ status, key, label }));
      expect(shape('pt-BR')).toEqual([
        { status: 404, key: 'checkin.validation.notfound', label: 'not_exists' },
        { status: 400, key: 'checkin.validation.invalid', label: 'invalid_parameter' },
        { status: 400, key: 'checkin.validation.invalid', label: 'invalid_parameter' },
        { status: 400, key: 'checkin.validation.canceled', label: 'check_in_not_available' },
        { status: 400, key: 'checkin.validation.expired', label: 'check_in_expired_alert' },
        { status: 400, key: 'checkin.already.validated', label: 'check_in_not_available' },
      ]);
      expect(shape('es')).toEqual(shape('pt-BR'));
      expect(shape('en')).toEqual(shape('pt-BR'));
      for (let i = 0; i < answers.en.length; i++) {
        const sentences = new Set(['pt-BR', 'es', 'en'].map((language) => answers[language][i].message));
        expect(sentences.size).toBe(3);
      }
      expect(answers.en[0].message).toMatch(/no check-in at this gym/);
      expect(answers['pt-BR'][0].message).toMatch(/não tem check-in/);
      expect(answers.es[0].message).toMatch(/no tiene un check-in/);
    });

    it('answers checkin.validation.denied with the rule that refuses at validation time, in every language', async () => {
      const messages = new Set<string>();
      for (const language of ['pt-BR', 'es', 'en']) {
        await truncateAll(t.dataSource);
        const gym = await gymAndMember();
        await checkIn(gym, gym.place.code);
        // The member is deactivated between the check-in and its validation.
        await t.dataSource.query('UPDATE beneficiaries SET active = 0 WHERE id = ?', [gym.member.id]);
        const { res, outcome } = await new WellhubClient(t.http, { key: gym.placeApiKey }, language).validate(
          gym.gymId,
          gym.memberNumber,
        );
        expect(outcome).toBe('denied');
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toEqual(
          expect.objectContaining({ key: 'checkin.validation.denied', label: 'inactive_employee' }),
        );
        messages.add(res.body.errors[0].message);
        expect(await visitCount(t)).toBe(0);
      }
      expect(messages.size).toBe(3);
    });

    it('treats an older check-in as none, and one at another gym as none', async () => {
      const gym = await gymAndMember();
      const elsewhere = await createGym(t);
      const client = new WellhubClient(t.http, { key: gym.partnerApiKey });
      await checkIn(gym, elsewhere.place.code);
      expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('not-found');
      t.clock.set(new Date(Date.now() - 2 * 86_400_000));
      await checkIn(gym, gym.place.code);
      t.clock.reset();
      expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('not-found');
    });

    it("reads the member's latest check-in at the gym, newer ones elsewhere passed over, by index with no temporary table", async () => {
      const gym = await gymAndMember();
      const elsewhere = await createGym(t);
      // Twenty earlier days, at this gym and at the other in turn; then today's, here.
      for (let day = 20; day >= 1; day--) {
        t.clock.set(new Date(Date.now() - day * 86_400_000));
        await checkIn(gym, (day % 2 ? elsewhere : gym).place.code);
      }
      t.clock.reset();
      const today = await checkIn(gym, gym.place.code);
      // The member's newest check-in is elsewhere (it replaces today's here): the read passes over it.
      await checkIn(gym, elsewhere.place.code);
      // One connection of its own: its session's counters are the statement's alone.
      const single = new DataSource(
        buildDataSourceOptions({ databaseUrl: t.config.databaseUrl, databasePoolSize: 1 }),
      );
      await single.initialize();
      try {
        const repository = new AccessControlRepository(single);
        // For any key, and for the gym's own place key (the statement a `plk_` key is looked up with first).
        for (const asPlaceKey of [false, true]) {
          await single.query('FLUSH STATUS');
          const read = await runStatement(
            single,
            repository.gymWithPendingCheckInStatement(
              { hash: hashKey(gym.placeApiKey), gymId: gym.gymId },
              gym.memberNumber,
              new Date(),
              t.config.tokenLookupFailuresPerMinute,
              asPlaceKey,
            ),
          );
          expect(read.gym.credential.kind).toBe('place');
          expect(read.checkIn).toBeUndefined();
          expect((await repository.latestCheckIn(gym.memberNumber, read.gym.placeId))?.id).toBe(today.id);
          const counters: { Variable_name: string; Value: string }[] = await single.query(
            "SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_read%' OR Variable_name = 'Created_tmp_tables'",
          );
          const value = (name: string) => Number(counters.find((c) => c.Variable_name === name)?.Value);
          expect(value('Created_tmp_tables')).toBe(0);
          expect(value('Handler_read_rnd_next')).toBe(0);
          const reads = counters
            .filter((c) => c.Variable_name.startsWith('Handler_read'))
            .reduce((sum, c) => sum + Number(c.Value), 0);
          // Both statements (none is pending here: the first finds none, the second the latest) read a few rows
          // by key each; a read that walked the member's 22 check-ins would read more than 22.
          expect(reads).toBeLessThan(20);
        }
      } finally {
        await single.destroy();
      }
      const client = new WellhubClient(t.http, { key: gym.placeApiKey });
      expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('canceled');
    });

    it("counts a check-in by the business day it started on: expired before midnight, yesterday's after", async () => {
      const gym = await gymAndMember();
      const client = new WellhubClient(t.http, { key: gym.placeApiKey });
      const window = t.config.checkInConfirmationWindowSeconds * 1000;
      // Midnight of the 24th in São Paulo (UTC-3).
      const midnight = Date.parse('2026-11-24T03:00:00Z');
      // Expired a minute before midnight: today's, so expired.
      t.clock.set(new Date(midnight - window - 2 * MINUTE));
      await checkIn(gym, gym.place.code);
      t.clock.advance(window + MINUTE);
      expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('expired');
      // Started a minute before midnight and expired after it: yesterday's, so none.
      t.clock.set(new Date(midnight - MINUTE));
      await checkIn(gym, gym.place.code);
      t.clock.advance(window + MINUTE);
      expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('not-found');
      t.clock.reset();
    });
  });

  describe('limits', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await createTestApp({ TOKEN_LOOKUP_FAILURES_PER_MINUTE: '3' });
    });
    afterAll(() => limited.close());

    it('limits validations that find nothing per key: 429 in that platform shape, with Retry-After', async () => {
      const gym = await gymAndMember();
      const client = new WellhubClient(limited.http, { key: gym.placeApiKey });
      for (let i = 0; i < 3; i++)
        expect((await client.validate(gym.gymId, gym.memberNumber)).outcome).toBe('not-found');
      const { res, outcome } = await client.validate(gym.gymId, gym.memberNumber);
      expect(outcome).toBe('rate-limited');
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).toEqual({
        metadata: { total: 0, errors: 1 },
        errors: [
          { message: expect.stringMatching(/\S/), key: 'request.rate_limited', label: 'rate_limited' },
        ],
      });
      // Another key is counted on its own, and limited in turn.
      const partner = new WellhubClient(limited.http, { key: gym.partnerApiKey });
      for (let i = 0; i < 3; i++)
        expect((await partner.validate(gym.gymId, gym.memberNumber)).outcome).toBe('not-found');
      expect((await partner.validate(gym.gymId, gym.memberNumber)).outcome).toBe('rate-limited');
    });
  });

  describe('custom codes', () => {
    it('sets, changes and removes a member code at the gym; an unknown member is notfound', async () => {
      const { place, gymId, member, memberNumber, placeApiKey } = await gymAndMember();
      const client = new WellhubClient(t.http, { key: placeApiKey });
      await client.code('post', gymId, memberNumber, 'A-1').expect(204);
      await client.code('put', gymId, memberNumber, 'B-2').expect(204);
      const [row] = await t.dataSource.query(
        'SELECT custom_code AS code FROM member_custom_codes WHERE beneficiary_id = ? AND place_id = ?',
        [member.id, place.id],
      );
      expect(row.code).toBe('B-2');
      await client.code('delete', gymId, memberNumber).expect(204);
      const unknown = await client.code('put', gymId, '1999999999999', 'C-3');
      expect(unknown.status).toBe(404);
      expect(readValidation(unknown.status, unknown.body)).toBe('not-found');
      const invalid = await client.code('post', gymId, memberNumber, '');
      expect(invalid.body.errors[0].key).toBe('checkin.validation.invalid');
    });
  });

  describe('sandbox', () => {
    it('simulates an app check-in that sends the checkin webhook, then validates', async () => {
      const { gymId, memberNumber, placeApiKey, plan } = await gymAndMember();
      const client = new WellhubClient(t.http, { key: placeApiKey });
      await client
        .subscribe(gymId, [{ event: 'checkin', url: receiver.url('/wellhub'), secret: SECRET }])
        .expect(204);
      const simulated = await client.simulate(gymId, memberNumber, plan.id + 100000).expect(201);
      await eventually(() => receiver.received.length === 1);
      expect(simulated.text).toBe(receiver.received[0].body);
      expect(simulated.body.event_data.user.unique_token).toBe(memberNumber);
      expect((await client.validate(gymId, memberNumber)).outcome).toBe('validated');
      const badProduct = await client.simulate(gymId, memberNumber, 123);
      expect(badProduct.status).toBe(400);
    });

    it('is not there without ACCESS_SANDBOX', async () => {
      const off = await createTestApp({});
      try {
        const { gymId, memberNumber, placeApiKey } = await gymAndMember();
        const res = await new WellhubClient(off.http, { key: placeApiKey }).simulate(gymId, memberNumber);
        expect(res.status).toBe(404);
        expect(await visitCount(t)).toBe(0);
      } finally {
        await off.close();
      }
    });
  });

  it('a gym without plans validates with product null', async () => {
    const { partner } = await createGym(t);
    const { place, placeApiKey } = await createPlace(t, partner);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    await checkIn({ memberNumber: String(member.memberNumber) }, place.code);
    const { res } = await new WellhubClient(t.http, { key: placeApiKey }).validate(
      Number(place.gymId),
      String(member.memberNumber),
    );
    expect(res.body.results.gym).toEqual({ id: Number(place.gymId), product: null });
  });
});
