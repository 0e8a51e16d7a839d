import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../webhook-policy';
import { signedHeaders } from './signed-headers';

describe('signedHeaders', () => {
  it('signs as Standard Webhooks does: its library verifies the headers, and signs the same', () => {
    const secret = generateWebhookSecret();
    // Now (to the second): the library refuses to verify a timestamp more than five minutes away.
    const at = new Date(Math.floor(Date.now() / 1000) * 1000);
    const payload = JSON.stringify({ id: 'evt_1', type: 'CHECK_IN_CREATED', name: 'José' });
    const headers = signedHeaders({
      url: 'https://erp.example.com/hooks',
      secret,
      eventId: 'evt_1',
      payload,
      at,
    });
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_1', at, payload));
    expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(headers).toMatchObject({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(at.getTime() / 1000),
    });
    // Another secret signs otherwise (the key of the last one is not reused).
    const other = signedHeaders({ url: '', secret: generateWebhookSecret(), eventId: 'evt_1', payload, at });
    expect(other['webhook-signature']).not.toBe(headers['webhook-signature']);
  });
});
