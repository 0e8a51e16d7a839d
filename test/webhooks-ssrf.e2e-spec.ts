import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { KeyVault } from '../src/common/crypto/key-vault';
import { PlaceSummaryRepository } from '../src/modules/partners/place-summary.repository';
import { generateWebhookSecret } from '../src/modules/webhooks/webhook-policy';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { envelope, expectError, partnerToken } from './support/http';
import { createTestApp, TestApp, truncateAll } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

describe('webhook targets on private networks (e2e)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_RETRY_SCHEDULE: '0.1' });
    receiver = await new WebhookReceiver().start();
    await truncateAll(t.dataSource);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('refuses http URLs at subscription time', async () => {
    const gym = await createGym(t);
    const token = await partnerToken(t.http, gym);
    const res = await request(t.http)
      .post('/partner/webhook/create')
      .set('Authorization', `Bearer ${token}`)
      .send({ webhook_url: receiver.url(), webhook_type: 'CHECKIN' });
    expect(expectError(res, 422, 'invalid_parameter')).toBe('webhook_url must use https');
  });

  /** IPv6 forms of the receiver's own 127.0.0.1 (and one of 10.0.0.1), each embedding the IPv4 address. */
  const embedded = [
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:7f00:1',
    '::ffff:0:7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::7f00:1',
    '2002:7f00:1::1',
    '2001:0:7f00:1::1',
    '2002:a00:1::1',
  ];

  it.each(embedded)(
    'refuses https://[%s]:3660/ at subscription time: an IPv6 address embedding an IPv4 one',
    async (address) => {
      const gym = await createGym(t);
      const res = await request(t.http)
        .post('/partner/webhook/create')
        .set('Authorization', `Bearer ${await partnerToken(t.http, gym)}`)
        .send({ webhook_url: `https://[${address}]:3660/`, webhook_type: 'CHECKIN' });
      expect(expectError(res, 422, 'invalid_parameter')).toMatch(/^webhook_url must name a public address/);
    },
  );

  it.each([
    ...embedded.map((address): [string, () => string] => [
      `[${address}], an IPv6 address embedding an IPv4 one`,
      () => `http://[${address}]:${receiver.port}/hooks`,
    ]),
    ['a loopback address', () => receiver.url()],
    ['a DNS name that resolves to loopback', () => `http://localhost:${receiver.port}/hooks`],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data'],
  ])('refuses to connect to %s, and the receiver is never called', async (_name, url) => {
    const gym = await createGym(t);
    // Stored directly: the route would refuse it, but an address can turn private after the check (DNS rebinding).
    await t.dataSource.query(
      "INSERT INTO webhook_subscriptions (id, place_id, type, url, secret_ciphertext, active) VALUES (?, ?, 'CHECKIN', ?, ?, 1)",
      [randomUUID(), gym.place.id, url(), t.app.get(KeyVault).seal(generateWebhookSecret())],
    );
    // Check-ins read the place's summary of its subscriptions, which the routes keep and SQL does not.
    await t.app.get(PlaceSummaryRepository).refresh(gym.place.id);
    const member = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', gym.placeApiKey)
      .send(envelope({ identifier: member.cpf }))
      .expect(204);
    const failed = async () =>
      (
        await t.dataSource.query('SELECT status FROM webhook_deliveries WHERE place_id = ?', [gym.place.id])
      )[0]?.status === 'failed';
    await eventually(failed, 15_000, 'the delivery to fail');
    const attempts = await t.dataSource.query(
      'SELECT a.status_code, a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.place_id = ?',
      [gym.place.id],
    );
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.status_code).toBeNull();
      // Never where the name resolved to: the log is the gym's to read.
      expect(attempt.error).toBe(
        'the target address is not allowed: it resolves to a private, loopback, link-local or metadata address',
      );
    }
    expect(receiver.received).toHaveLength(0);
  });
});
