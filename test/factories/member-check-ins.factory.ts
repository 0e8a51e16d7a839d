import request from 'supertest';
import { partnerToken } from '../support/http';
import { TestApp } from '../support/test-app';

export interface CreatedCheckIn {
  id: string;
  token: string;
  body: Record<string, unknown>;
}

/** `Authorization: Bearer <MEMBER_API_TOKEN>` of the app under test. */
export const memberAuth = (t: TestApp) => `Bearer ${t.config.memberApiToken}`;

/** A member check-in made through the member API, as the platform's app backend makes them. */
export async function createMemberCheckIn(
  t: TestApp,
  fields: {
    identifier: string;
    service_provider_code: string;
    type?: string;
    service_provider_plan_code?: string;
  },
): Promise<CreatedCheckIn> {
  const res = await request(t.http)
    .post('/member/v1/check_ins')
    .set('Authorization', memberAuth(t))
    .send({ type: 'cpf', ...fields });
  if (res.status !== 201)
    throw new Error(`member check-in refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token: res.body.token, body: res.body };
}

/** An event body as the outbox stored it. */
export interface OutboxEvent {
  id: string;
  type: string;
  created_at: string;
  endpoint?: string;
  check_in: { id: string; status: string; token?: string; [field: string]: unknown };
  place: Record<string, unknown>;
  user: Record<string, unknown>;
}

/** The events written to the outbox (of one place, when given), oldest first, parsed. */
export async function outboxEvents(t: TestApp, placeId?: string): Promise<OutboxEvent[]> {
  const rows: { payload: string }[] = await t.dataSource.query(
    `SELECT payload FROM webhook_deliveries ${placeId ? 'WHERE place_id = ?' : ''} ORDER BY created_at, event_id`,
    placeId ? [placeId] : [],
  );
  return rows.map((row) => JSON.parse(row.payload) as OutboxEvent);
}

/** The confirmation path of a member check-in, from the `endpoint` of its CHECK_IN_CREATED event. */
export async function confirmationPath(t: TestApp, checkInId: string): Promise<string> {
  const created = (await outboxEvents(t)).find(
    (event) => event.type === 'CHECK_IN_CREATED' && event.check_in.id === checkInId,
  );
  if (!created?.endpoint) throw new Error(`no CHECK_IN_CREATED for ${checkInId}: is the place subscribed?`);
  return new URL(created.endpoint).pathname;
}

export async function visitCount(t: TestApp): Promise<number> {
  const [{ n }] = await t.dataSource.query('SELECT COUNT(*) AS n FROM visits');
  return Number(n);
}

/** Subscribes the gym's CHECKIN webhook to `url`, as the gym does with its bearer token. */
export async function subscribeCheckIns(
  t: TestApp,
  gym: { placeApiKey: string; partnerApiKey: string },
  url: string,
): Promise<void> {
  await request(t.http)
    .post('/partner/webhook/create')
    .set('Authorization', `Bearer ${await partnerToken(t.http, gym)}`)
    .send({ webhook_url: url, webhook_type: 'CHECKIN' })
    .expect(201);
}
