// The demo's app flow: the demo's receiver subscribed to a gym's CHECKIN webhook, and one member check-in made
// through the member API, as the platform's app backend makes it; the receiver then prints its CHECK_IN_CREATED.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';

/** What the demo's receiver got: the event bodies, parsed. */
export interface ReceivedEvent {
  type?: string;
  endpoint?: string;
  check_in?: { id?: string; token?: string };
  /** A Wellhub-format event: `checkin`. */
  event_type?: string;
  event_data?: { user?: { unique_token?: string } };
}

/** The secret the demo subscribes its receiver to the Wellhub-format `checkin` event with. */
export const DEMO_WELLHUB_SECRET = 'demo-wellhub-secret';

/** How a gym system written for Wellhub checks `X-Gympass-Signature`: HMAC-SHA1 hex, upper case, `0X` optional. */
function gympassSignatureValid(body: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = createHmac('sha1', DEMO_WELLHUB_SECRET).update(body, 'utf8').digest('hex').toUpperCase();
  return header.trim().toUpperCase().replace(/^0X/, '') === expected;
}

/** A local webhook receiver that prints what it gets and keeps the bodies, so the story can quote them. */
export async function startReceiver(port: number): Promise<{ received: ReceivedEvent[] }> {
  const received: ReceivedEvent[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      let event: ReceivedEvent = {};
      try {
        event = JSON.parse(body) as ReceivedEvent;
      } catch {
        // Printed as it came.
      }
      received.push(event);
      const endpoint = event.endpoint ? `\n  endpoint: ${event.endpoint}` : '';
      const signature = req.headers['x-gympass-signature'];
      if (signature !== undefined) {
        const verdict = gympassSignatureValid(body, signature)
          ? `valid (HMAC-SHA1 of the body with ${DEMO_WELLHUB_SECRET})`
          : 'INVALID';
        console.log(
          `\n[webhook receiver] ${req.method} ${req.url} ${event.event_type ?? ''}\n` +
            `  X-Gympass-Signature: ${String(signature)} (${verdict})\n  ${body}`,
        );
        res.writeHead(200).end('ok');
        return;
      }
      console.log(
        `\n[webhook receiver] ${req.method} ${req.url} ${event.type ?? ''}${endpoint}\n` +
          `  webhook-id: ${req.headers['webhook-id']}\n  webhook-timestamp: ${req.headers['webhook-timestamp']}\n` +
          `  webhook-signature: ${req.headers['webhook-signature']}\n  ${body}`,
      );
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { received };
}

async function call(base: string, path: string, init: RequestInit): Promise<Response> {
  return fetch(`${base}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
}

/** Points the gym's CHECKIN webhook at `url`: created the first time, updated on later runs. */
export async function subscribe(
  base: string,
  keys: { placeApiKey: string; partnerApiKey: string },
  url: string,
): Promise<void> {
  const auth = await call(base, '/partner/auth', {
    method: 'POST',
    body: JSON.stringify({ place_api_key: keys.placeApiKey, partner_api_key: keys.partnerApiKey }),
  });
  const { token } = (await auth.json()) as { token: string };
  const request = (method: string, path: string) =>
    call(base, path, {
      method,
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ webhook_url: url, webhook_type: 'CHECKIN' }),
    });
  const created = await request('POST', '/partner/webhook/create');
  if (created.status === 422) await request('PUT', '/partner/webhook/update');
}

export interface AppCheckIn {
  id: string;
  token: string;
  /** The confirmation endpoint, once the receiver got the CHECK_IN_CREATED event. */
  endpoint?: string;
}

/** A member check-in made through the member API; waits (a while) for its event to reach the receiver. */
export async function createAppCheckIn(
  base: string,
  memberApiToken: string,
  body: { identifier: string; service_provider_code: string },
  received: ReceivedEvent[],
): Promise<AppCheckIn | undefined> {
  const res = await call(base, '/member/v1/check_ins', {
    method: 'POST',
    headers: { authorization: `Bearer ${memberApiToken}` },
    body: JSON.stringify({ type: 'cpf', ...body }),
  });
  if (res.status !== 201) {
    console.warn(`The demo's member check-in was refused: ${res.status} ${await res.text()}`);
    return undefined;
  }
  const checkIn = (await res.json()) as { id: string; token: string };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const event = received.find((e) => e.type === 'CHECK_IN_CREATED' && e.check_in?.id === checkIn.id);
    if (event) return { ...checkIn, endpoint: event.endpoint };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return checkIn;
}

/**
 * The Wellhub-compatible setup of a gym, as a gym system written for that platform does it with its key: the
 * `checkin` webhook to `url` (replaced on every run), then a member's check-in simulated with the sandbox
 * helper; waits (a while) for the signed event to reach the receiver. Answers whether it arrived.
 */
export async function wellhubCheckIn(
  base: string,
  key: string,
  gymId: number,
  url: string,
  memberNumber: string,
  received: ReceivedEvent[],
): Promise<boolean> {
  const auth = { authorization: `Bearer ${key}` };
  const subscribed = await call(base, `/v1/systems/gyms/${gymId}/webhooks`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ webhooks: [{ event: 'checkin', url, secret: DEMO_WELLHUB_SECRET }] }),
  });
  if (subscribed.status !== 204) {
    console.warn(
      `The demo's Wellhub-format subscription was refused: ${subscribed.status} ${await subscribed.text()}`,
    );
    return false;
  }
  const simulated = await call(base, `/helper/v1/gyms/${gymId}/simulate/checkins`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ gympass_user_id: memberNumber }),
  });
  if (simulated.status !== 201) {
    console.warn(`The demo's simulated check-in was refused: ${simulated.status} ${await simulated.text()}`);
    return false;
  }
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (received.some((e) => e.event_type === 'checkin' && e.event_data?.user?.unique_token === memberNumber))
      return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}
