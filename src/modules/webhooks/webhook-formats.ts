import { createHmac } from 'node:crypto';

/**
 * How a subscription's events are signed and sent. `standard`: Standard Webhooks (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), every subscription of `/partner/webhook/*`. `wellhub`: Wellhub's
 * `X-Gympass-Signature`, HMAC-SHA1 of the body's exact bytes, hex, upper case (the integration-setup routes).
 * The body is the event's stored payload in both: every attempt sends and signs the same bytes. The headers
 * of both are built in one function, delivery/signed-headers.ts.
 */
export const WEBHOOK_FORMATS = ['standard', 'wellhub'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** `X-Gympass-Signature`'s value for `body` signed with `secret`. */
export function gympassSignature(body: string | Buffer, secret: string): string {
  return createHmac('sha1', secret).update(body).digest('hex').toUpperCase();
}
