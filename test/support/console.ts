import request, { Test } from 'supertest';
import type { App } from 'supertest/types';
import { PASSWORD } from '../factories/accounts.factory';

/** A signed-in console session: its cookie and CSRF token. */
export interface ConsoleSession {
  cookie: string;
  csrf: string;
  account: { id: number; email: string; role: string };
}

/** The `gis_session=<token>` pair of a sign-in's Set-Cookie. */
export function sessionCookieOf(res: request.Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = header.find((line) => line.startsWith('gis_session='));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(res.headers)}`);
  return cookie.split(';')[0];
}

export async function signIn(
  http: App,
  account: { email: string },
  password = PASSWORD,
): Promise<ConsoleSession> {
  const res = await request(http)
    .post('/account/session')
    .send({ email: account.email, password })
    .expect(200);
  return { cookie: sessionCookieOf(res), csrf: res.body.csrf_token, account: res.body.account };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A request made with a session: its cookie, and its CSRF token unless `csrf: false`. */
export function asSession(
  http: App,
  session: ConsoleSession,
  method: Method,
  path: string,
  { csrf = true }: { csrf?: boolean } = {},
): Test {
  const call = request(http)[method](path).set('Cookie', session.cookie);
  return csrf ? call.set('X-CSRF-Token', session.csrf) : call;
}
