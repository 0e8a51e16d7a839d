import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym, createPlace, createPlan } from './factories/partners.factory';
import { envelope } from './support/http';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('concurrent registers (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  async function visits(): Promise<number> {
    const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM visits');
    return Number(n);
  }

  function labels(answers: request.Response[]): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const answer of answers) {
      const key = answer.status === 204 ? '204' : `${answer.status} ${answer.body.errors[0].label}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  it('30 parallel registers of one CPF, half at each of two gyms, record exactly one visit', async () => {
    const a = await createGym(t);
    const b = await createPlace(t, a.partner, { name: 'Second unit' });
    await createPlan(t.dataSource, b.place);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        request(t.http)
          .post('/v1/track_usages')
          .set('x-api-key', i % 2 === 0 ? a.placeApiKey : b.placeApiKey)
          .send(envelope({ identifier: member.cpf })),
      ),
    );
    const counts = labels(answers);
    expect(counts['204']).toBe(1);
    expect((counts['422 already_used'] ?? 0) + (counts['422 already_used_other_gym'] ?? 0)).toBe(29);
    expect(counts['422 already_used']).toBeGreaterThanOrEqual(14);
    expect(counts['422 already_used_other_gym']).toBeGreaterThanOrEqual(14);
    expect(await visits()).toBe(1);
  });

  describe('with the recent window at 0 and a monthly limit of 5', () => {
    let u: TestApp;
    let v: TestApp;
    beforeAll(async () => {
      u = await createTestApp({ RECENT_CHECKIN_WINDOW_SECONDS: '0' });
      v = await createTestApp({ RECENT_CHECKIN_WINDOW_SECONDS: '0' });
    });
    afterAll(async () => {
      await u.close();
      await v.close();
    });

    async function limitedMember() {
      const gym = await createGym(t);
      const member = await createBeneficiary(
        t.dataSource,
        await createBenefitPlan(t.dataSource, { monthlyVisitLimit: 5 }),
      );
      return { gym, member };
    }

    it('40 parallel registers record exactly 5 visits', async () => {
      const { gym, member } = await limitedMember();
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          request(u.http)
            .post('/v1/track_usages')
            .set('x-api-key', gym.placeApiKey)
            .send(envelope({ identifier: member.cpf })),
        ),
      );
      expect(labels(answers)).toEqual({ '204': 5, '422 usage_limit_reached': 35 });
      expect(await visits()).toBe(5);
    });

    it('the same holds with two service instances in one process on one database', async () => {
      const { gym, member } = await limitedMember();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          request((i % 2 === 0 ? u : v).http)
            .post('/v1/track_usages')
            .set('x-api-key', gym.placeApiKey)
            .send(envelope({ identifier: member.cpf })),
        ),
      );
      expect(labels(answers)).toEqual({ '204': 5, '422 usage_limit_reached': 35 });
      expect(await visits()).toBe(5);
    });

    it('the same holds with two service processes on one database', async () => {
      const { gym, member } = await limitedMember();
      const port = await freePort();
      const other = new ServiceProcess({ PORT: String(port), RECENT_CHECKIN_WINDOW_SECONDS: '0' });
      try {
        await other.waitUntilListening();
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            request(i % 2 === 0 ? u.http : `http://127.0.0.1:${port}`)
              .post('/v1/track_usages')
              .set('x-api-key', gym.placeApiKey)
              .send(envelope({ identifier: member.cpf })),
          ),
        );
        expect(labels(answers)).toEqual({ '204': 5, '422 usage_limit_reached': 35 });
        expect(await visits()).toBe(5);
      } finally {
        await other.stop();
      }
    });
  });
});
