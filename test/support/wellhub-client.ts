import { createHmac, timingSafeEqual } from 'node:crypto';
import request from 'supertest';
import type { App } from 'supertest/types';

/**
 * A gym system written for Wellhub's Access Control, as the public clients of that contract behave (read, not
 * copied): it verifies `X-Gympass-Signature` (HMAC-SHA1 of the raw body, hex; compared upper case, an optional
 * `0X` prefix ignored), validates with `Authorization: Bearer` + `X-Gym-Id` or the legacy `X-Api-Key`, and
 * decides by the status and each error's `key` (exact value or suffix), never by a message.
 */
export type ValidationOutcome =
  | 'validated'
  | 'already-validated'
  | 'not-found'
  | 'expired'
  | 'canceled'
  | 'denied'
  | 'invalid'
  | 'credentials'
  | 'rate-limited'
  | 'unknown';

export function verifyGympassSignature(rawBody: string, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = createHmac('sha1', secret).update(rawBody, 'utf8').digest('hex').toUpperCase();
  const given = header.trim().toUpperCase().replace(/^0X/, '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** The outcome a client reads from an answer of POST /access/v1/validate. */
export function readValidation(status: number, body: unknown): ValidationOutcome {
  if (status >= 200 && status < 300) return 'validated';
  if (status === 401 || status === 403) return 'credentials';
  if (status === 429) return 'rate-limited';
  const keys = ((body as { errors?: { key?: unknown }[] } | null)?.errors ?? [])
    .map((error) => error.key)
    .filter((key): key is string => typeof key === 'string');
  const has = (suffix: string) => keys.some((key) => key === suffix || key.endsWith(`.${suffix}`));
  if (keys.includes('checkin.already.validated')) return 'already-validated';
  if (has('notfound')) return 'not-found';
  if (has('expired')) return 'expired';
  if (has('canceled') || has('cancelled')) return 'canceled';
  if (has('denied')) return 'denied';
  if (has('invalid')) return 'invalid';
  return 'unknown';
}

export interface Credentials {
  key: string;
  /** How the key is sent: a bearer (the current clients) or the legacy header. */
  as?: 'bearer' | 'x-api-key';
}

export class WellhubClient {
  constructor(
    private readonly http: App,
    private readonly credentials: Credentials,
    private readonly language?: string,
  ) {}

  private auth<T extends request.Test>(test: T): T {
    const { key, as = 'bearer' } = this.credentials;
    const authed = as === 'bearer' ? test.set('Authorization', `Bearer ${key}`) : test.set('X-Api-Key', key);
    return this.language ? authed.set('Accept-Language', this.language) : authed;
  }

  async validate(
    gymId: number,
    gympassId: string,
    customCode?: string,
  ): Promise<{ outcome: ValidationOutcome; res: request.Response }> {
    const res = await this.auth(request(this.http).post('/access/v1/validate'))
      .set('X-Gym-Id', String(gymId))
      .send({ gympass_id: gympassId, ...(customCode ? { custom_code: customCode } : {}) });
    return { outcome: readValidation(res.status, res.body), res };
  }

  gyms(): request.Test {
    return this.auth(request(this.http).get('/v1/systems/gyms'));
  }

  subscribe(gymId: number, webhooks: unknown[]): request.Test {
    return this.auth(request(this.http).post(`/v1/systems/gyms/${gymId}/webhooks`)).send({ webhooks });
  }

  webhooks(gymId: number): request.Test {
    return this.auth(request(this.http).get(`/v1/systems/gyms/${gymId}/webhooks`));
  }

  code(
    method: 'post' | 'put' | 'delete',
    gymId: number,
    gympassId: string,
    customCode?: string,
  ): request.Test {
    const test = this.auth(request(this.http)[method](`/access/v1/code/${gympassId}`)).set(
      'X-Gym-Id',
      String(gymId),
    );
    return customCode === undefined ? test : test.send({ custom_code: customCode });
  }

  simulate(gymId: number, gympassUserId: string, productId?: number): request.Test {
    return this.auth(request(this.http).post(`/helper/v1/gyms/${gymId}/simulate/checkins`)).send({
      gympass_user_id: gympassUserId,
      ...(productId ? { product_id: productId } : {}),
    });
  }
}
