import request from 'supertest';
import { createGym } from './factories/partners.factory';
import { partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

/** Writes to one place's plans and webhook, 8 at a time: each one answers, none deadlocks into a 500. */
describe('concurrent writes to a place (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp();
    await truncateAll(t.dataSource);
    admin = `Bearer ${t.config.adminApiToken}`;
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const eightAtATime = <T>(work: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: 8 }, (_, i) => work(i)));

  it('creates 8 plans at once, 3 rounds: 24 answers 201, and the place lists them all', async () => {
    const { place } = await createGym(t);
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const answers = await eightAtATime((i) =>
        request(t.http)
          .post(`/admin/places/${place.id}/plans`)
          .set('Authorization', admin)
          .send({ name: `Plan ${round}-${i}`, tier: 1 + (i % 3) }),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses).toEqual(Array(24).fill(201));
    const [{ plans }] = await t.dataSource.query(
      'SELECT JSON_LENGTH(check_in_plans) AS plans FROM places WHERE id = ?',
      [place.id],
    );
    expect(Number(plans)).toBe(25);
  });

  it('deletes 8 plans at once: 8 answers 200 and the summary keeps the one left', async () => {
    const { place } = await createGym(t);
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await request(t.http)
        .post(`/admin/places/${place.id}/plans`)
        .set('Authorization', admin)
        .send({ name: `Plan ${i}`, tier: 1 })
        .expect(201);
      codes.push(res.body.code as string);
    }
    const answers = await eightAtATime((i) =>
      request(t.http).delete(`/admin/places/${place.id}/plans/${codes[i]}`).set('Authorization', admin),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const [{ plans }] = await t.dataSource.query(
      'SELECT JSON_LENGTH(check_in_plans) AS plans FROM places WHERE id = ?',
      [place.id],
    );
    expect(Number(plans)).toBe(1);
  });

  it('changes the webhook 8 at a time, 3 rounds: 24 answers 200 and the last URL written is stored', async () => {
    const gym = await createGym(t);
    const auth = `Bearer ${await partnerToken(t.http, gym)}`;
    await request(t.http)
      .post('/partner/webhook/create')
      .set('Authorization', auth)
      .send({ webhook_url: receiver.url('/v0'), webhook_type: 'CHECKIN' })
      .expect(201);
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const answers = await eightAtATime((i) =>
        request(t.http)
          .put('/partner/webhook/update')
          .set('Authorization', auth)
          .send({ webhook_url: receiver.url(`/v${round}-${i}`), webhook_type: 'CHECKIN' }),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses).toEqual(Array(24).fill(200));
    const [{ summary }] = await t.dataSource.query(
      'SELECT check_in_webhook AS summary FROM places WHERE id = ?',
      [gym.place.id],
    );
    expect(Number(summary)).toBe(1);
  });
});
