import { getQueueToken } from '@nestjs/bull';
import type { Job, Queue } from 'bull';
import request from 'supertest';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { DeliveriesRepository } from '../src/modules/webhooks/delivery/deliveries.repository';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { subscribeCheckIns } from './factories/member-check-ins.factory';
import { createGym } from './factories/partners.factory';
import { envelope } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

/**
 * The outbox on the hot path: a register at a subscribed gym writes its event and delivery in its own
 * transaction, and must not wait for the poller that hands due attempts to Redis.
 */
describe('outbox writes beside the poller (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    t.clock.reset();
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => t.close());

  it('a register commits its event while the poller hands the run it started to Redis', async () => {
    const gym = await createGym(t);
    await subscribeCheckIns(t, gym, 'http://127.0.0.1:9/hook');
    const plan = await createBenefitPlan(t.dataSource);
    const [first, second] = [
      await createBeneficiary(t.dataSource, plan),
      await createBeneficiary(t.dataSource, plan),
    ];
    const register = (cpf: string) =>
      request(t.http)
        .post('/v1/track_usages')
        .set('x-api-key', gym.placeApiKey)
        .send(envelope({ identifier: cpf }))
        .expect(204);

    const order: string[] = [];
    let handing!: () => void;
    const handingOver = new Promise<void>((resolve) => (handing = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const repository = t.app.get(DeliveriesRepository);
    const claimDue = repository.claimDue.bind(repository);
    jest.spyOn(repository, 'claimDue').mockImplementation(async (...args) => {
      const claimed = await claimDue(...args);
      order.push('poller claimed');
      return claimed;
    });
    // The poller's hand-over to Redis stays open until the test lets Redis "answer".
    jest.spyOn(t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE)), 'addBulk').mockImplementation(async () => {
      order.push('handing over');
      handing();
      await gate;
      order.push('queued');
      return [] as Job[];
    });

    await register(first.cpf);
    await handingOver;
    await register(second.cpf);
    order.push('second register answered');
    release();
    while (!order.includes('queued')) await new Promise((resolve) => setTimeout(resolve, 20));

    // Had the transaction that started the run stayed open over the Redis round trip, the endpoint's row and
    // whatever it read would stay locked while the register waits.
    expect(order.slice(0, 4)).toEqual([
      'poller claimed',
      'handing over',
      'second register answered',
      'queued',
    ]);
    const events: { n: string }[] = await t.dataSource.query('SELECT COUNT(*) AS n FROM webhook_deliveries');
    expect(Number(events[0].n)).toBe(2);
  });
});
