import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'gis_session';

/** The session token the request's cookie carries, if any. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const token = request.cookies?.[SESSION_COOKIE];
  return token ? token : undefined;
}

/** `gis_session=<token>; HttpOnly; SameSite=Lax; Path=/` (+ `Secure` outside development and test). */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}
