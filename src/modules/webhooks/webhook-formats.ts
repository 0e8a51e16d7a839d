import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * How a subscription's events are signed and sent. `standard`: Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), every subscription of `/partner/webhook/*`. `wellhub`: Wellhub's
 * `X-Gympass-Signature`, HMAC-SHA1 of the body's exact bytes, hex, upper case (the integration-setup routes).
 * The body is the event's stored payload in both: every attempt sends and signs the same bytes.
 */
export const WEBHOOK_FORMATS = ['standard', 'wellhub'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export interface SignedMessage {
  url: string;
  secret: string;
  eventId: string;
  payload: string;
  at: Date;
  /** Absent: `standard`. */
  format?: WebhookFormat;
}

const USER_AGENT = 'gym-integration-webhooks/1.0';

/** `X-Gympass-Signature`'s value for `body` signed with `secret`. */
export function gympassSignature(body: string | Buffer, secret: string): string {
  return createHmac('sha1', secret).update(body).digest('hex').toUpperCase();
}

/** The headers an attempt of `message` is sent with (besides `content-length`), by its subscription's format. */
export function signedHeaders(message: SignedMessage): Record<string, string> {
  const format = message.format ?? 'standard';
  switch (format) {
    case 'standard':
      return {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': message.eventId,
        'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
        'webhook-signature': new Webhook(message.secret).sign(message.eventId, message.at, message.payload),
      };
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
