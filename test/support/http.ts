import type { Response } from 'supertest';
import request from 'supertest';

/**
 * Asserts the contract's envelope for one error: status, title, label, a detail sentence, source, and the
 * request id of the answer's `X-Request-Id` in `meta`.
 */
export function expectError(
  res: Response,
  status: number,
  label: string,
  title = 'Validation Error',
): string {
  expect({ status: res.status, label: res.body?.errors?.[0]?.label }).toEqual({ status, label });
  const [error] = res.body.errors;
  expect(res.body.errors).toHaveLength(1);
  expect(error).toEqual({
    status: String(status),
    title,
    label,
    detail: expect.stringMatching(/\S/),
    source: [{ label, message: error.detail }],
    meta: { request_id: res.headers['x-request-id'] },
  });
  return error.detail;
}

/**
 * The error body as the contract shapes it, without each error's `meta.request_id`: every answer names its own
 * request, an idempotent replay too, so two answers are alike when everything else is.
 */
export function withoutRequestIds(res: Response): unknown {
  expect(res.body.errors.map((error: { meta?: unknown }) => error.meta)).toEqual(
    res.body.errors.map(() => ({ request_id: res.headers['x-request-id'] })),
  );
  return {
    ...res.body,
    errors: res.body.errors.map(({ meta: _meta, ...error }: { meta?: unknown }) => error),
  };
}

export interface CheckInFields {
  type?: string;
  identifier: string;
  service_provider_code?: string;
  service_provider_plan_code?: string;
}

export const flat = (fields: CheckInFields) => ({ type: 'cpf', ...fields });
export const envelope = (fields: CheckInFields) => ({
  data: { type: 'track_usage', attributes: { type: 'cpf', ...fields } },
});

/** A bearer token from POST /partner/auth for a gym's two keys. */
export async function partnerToken(
  app: Parameters<typeof request>[0],
  keys: { placeApiKey: string; partnerApiKey: string },
): Promise<string> {
  const res = await request(app)
    .post('/partner/auth')
    .send({ place_api_key: keys.placeApiKey, partner_api_key: keys.partnerApiKey })
    .expect(201);
  return res.body.token as string;
}
