import { createHmac } from 'node:crypto';
import { gympassSignature, WebhookFormat } from '../webhook-formats';

/** What a delivery's request is signed over, and with what. */
export interface SignedMessage {
  url: string;
  secret: string;
  eventId: string;
  payload: string;
  at: Date;
  /** The subscription's format; absent: `standard`. */
  format?: WebhookFormat;
}

const USER_AGENT = 'gym-integration-webhooks/1.0';

const SECRET_PREFIX = 'whsec_';

/** The last secret's key bytes: a run signs its whole batch with one subscription's secret. */
let lastSecret: { secret: string; key: Buffer } | undefined;

function keyOf(secret: string): Buffer {
  if (lastSecret?.secret !== secret) {
    const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
    lastSecret = { secret, key: Buffer.from(encoded, 'base64') };
  }
  return lastSecret.key;
}

/**
 * Every header of a delivery's request but its length, signed as Standard Webhooks says (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>` keyed with the
 * base64 part of the `whsec_` secret; any Standard Webhooks library verifies it). Node's HMAC rather than the
 * library's JavaScript SHA-256, which cost several times as much per delivery. The one place that builds
 * them: a subscription with another format signs here too. A new object each call: the sender adds the length.
 */
export function signedHeaders(message: SignedMessage): Record<string, string> {
  const format = message.format ?? 'standard';
  switch (format) {
    case 'standard':
      return standardHeaders(message);
    case 'wellhub':
      return {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        // Not that platform's, but harmless to its clients: the event id, the same on every attempt, to dedupe on.
        'webhook-id': message.eventId,
        'x-gympass-signature': gympassSignature(message.payload, message.secret),
      };
    default:
      return assertNever(format);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unknown webhook format ${String(value)}`);
}

function standardHeaders(message: SignedMessage): Record<string, string> {
  const timestamp = String(Math.floor(message.at.getTime() / 1000));
  const signature = createHmac('sha256', keyOf(message.secret))
    .update(`${message.eventId}.${timestamp}.${message.payload}`)
    .digest('base64');
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': message.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
