import createClient from 'openapi-fetch';
import type { components, paths } from './openapi-types';

type WebhookEvent = components['schemas']['CheckInEventDto'] | components['schemas']['TestEventDto'];

/** What the story starts from: a gym with its keys, two beneficiaries, the member API's token, a receiver. */
export interface StoryWorld {
  baseUrl: string;
  keys: { place_api_key: string; partner_api_key: string };
  placeCode: string;
  memberApiToken: string;
  /** CPFs: one walks in at the desk, one checks in in the app, one checks in and cancels, one is no beneficiary. */
  visitor: string;
  member: string;
  hesitant: string;
  stranger: string;
  receiverUrl: string;
  /** The first `count` events the receiver got, waiting for them. */
  events(count: number): Promise<WebhookEvent[]>;
}

function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined)
    throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

/**
 * A gym's integrator, through the client that openapi-typescript and openapi-fetch generate from the document: one
 * client per way of authenticating. Type-checked against the types of the served document, so a route, field
 * or type the document loses breaks it.
 */
export async function integratorStory(world: StoryWorld): Promise<void> {
  const { baseUrl } = world;
  const anonymous = createClient<paths>({ baseUrl });
  const desk = createClient<paths>({ baseUrl, headers: { 'x-api-key': world.keys.place_api_key } });
  const app = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${world.memberApiToken}` } });

  const { token } = ok(await anonymous.POST('/partner/auth', { body: world.keys }), 'the token exchange');
  const backOffice = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

  // The gym's plans, then one of them by its code.
  const gym = ok(await backOffice.GET('/partner/plans'), 'the plans');
  if (Array.isArray(gym)) throw new Error('without ?id= the plans come with the gym');
  const [plan] = gym.Plans;
  const byCode = ok(
    await backOffice.GET('/partner/plans', { params: { query: { id: plan.code } } }),
    'a plan by its code',
  );
  expect(Array.isArray(byCode) && byCode.map((found) => found.id)).toEqual([plan.id]);

  const subscribed = ok(
    await backOffice.POST('/partner/webhook/create', {
      body: { webhook_url: world.receiverUrl, webhook_type: 'CHECKIN' },
    }),
    'the subscription',
  );
  expect(subscribed.webhook.secret).toMatch(/^whsec_/);

  // At the desk: someone who is no beneficiary, then one who is, and the visit.
  const refused = await desk.POST('/v1/track_usages/validate', {
    body: { type: 'cpf', identifier: world.stranger },
  });
  const label: components['schemas']['ErrorLabel'] | undefined = refused.error?.errors[0].label;
  expect({ status: refused.response.status, label }).toEqual({ status: 422, label: 'not_exists' });
  const eligible = await desk.POST('/v1/track_usages/validate', {
    body: { type: 'cpf', identifier: world.visitor, service_provider_code: world.placeCode },
  });
  expect(eligible.response.status).toBe(204);
  const visit = await desk.POST('/v1/track_usages', {
    params: { header: { 'Idempotency-Key': `visit-${world.visitor}` } },
    body: { data: { type: 'track_usage', attributes: { type: 'cpf', identifier: world.visitor } } },
  });
  expect(visit.response.status).toBe(204);
  const [recorded] = await world.events(1);
  expect(recorded).toMatchObject({
    type: 'CHECK_IN_CREATED',
    check_in: { status: 'validated', plan_code: plan.code },
    place: { code: world.placeCode },
  });

  // In the app: a member checks in; the gym confirms at the endpoint of the event it receives.
  const checkIn = ok(
    await app.POST('/member/v1/check_ins', {
      body: { type: 'cpf', identifier: world.member, service_provider_code: world.placeCode },
    }),
    "the member's check-in",
  );
  expect(checkIn.status).toBe('pending');
  const created = (await world.events(2))[1];
  if (created.type !== 'CHECK_IN_CREATED' || !created.endpoint)
    throw new Error(`expected the app check-in's CHECK_IN_CREATED, got ${JSON.stringify(created)}`);
  expect(created.check_in).toMatchObject({ id: checkIn.id, token: checkIn.token, status: 'pending' });
  const confirmation = decodeURIComponent(new URL(created.endpoint).pathname.split('/').pop() ?? '');
  const confirmed = await anonymous.POST('/api/v1/webhook_confirmations/{token}', {
    params: { path: { token: confirmation } },
  });
  expect(confirmed.data).toBe('1');
  const after = ok(
    await app.GET('/member/v1/check_ins/{id}', { params: { path: { id: checkIn.id } } }),
    'the check-in after its confirmation',
  );
  expect(after.status).toBe('validated');
  const validated = (await world.events(3))[2];
  expect(validated).toMatchObject({ type: 'CHECK_IN_VALIDATED', check_in: { id: checkIn.id } });

  // Another member checks in, then thinks better of it.
  const hesitation = ok(
    await app.POST('/member/v1/check_ins', {
      body: { type: 'cpf', identifier: world.hesitant, service_provider_code: world.placeCode },
    }),
    'the second check-in',
  );
  await world.events(4);
  const cancelled = ok(
    await app.DELETE('/member/v1/check_ins/{id}', { params: { path: { id: hesitation.id } } }),
    'the cancellation',
  );
  expect(cancelled.status).toBe('cancelled');
  expect((await world.events(5))[4]).toMatchObject({
    type: 'CHECK_IN_CANCELLED',
    check_in: { id: hesitation.id, status: 'cancelled', cancel_reason: 'member' },
  });

  // The back office tries its receiver.
  const test = await backOffice.POST('/partner/webhook/test/{type}', {
    params: { path: { type: 'CHECKIN' } },
  });
  expect(test.response.status).toBe(202);
  expect((await world.events(6))[5]).toMatchObject({ type: 'TEST', place: { code: world.placeCode } });
}
