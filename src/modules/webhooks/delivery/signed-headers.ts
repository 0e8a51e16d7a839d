import { Webhook } from 'standardwebhooks';

/** What a delivery's request is signed over, and with what. */
export interface SignedMessage {
  url: string;
  secret: string;
  eventId: string;
  payload: string;
  at: Date;
}

/**
 * Every header of a delivery's request but its length, signed as Standard Webhooks says (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`). The one place that
 * builds them: a subscription with another format signs here too.
 */
export function signedHeaders(message: SignedMessage): Record<string, string> {
  const signature = new Webhook(message.secret).sign(message.eventId, message.at, message.payload);
  return {
    'content-type': 'application/json',
    'user-agent': 'gym-integration-webhooks/1.0',
    'webhook-id': message.eventId,
    'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
