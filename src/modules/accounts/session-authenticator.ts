import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sessionTokenOf } from './session-cookie';
import { LiveSession, SessionService } from './session.service';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The session of a request's cookie, and the CSRF rule for changes made with it: a POST, PUT, PATCH or DELETE
 * must carry the session's `X-CSRF-Token`, or an `Origin` that is the service's own (PUBLIC_BASE_URL).
 */
@Injectable()
export class SessionAuthenticator {
  private readonly ownOrigin: string;

  constructor(
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownOrigin = new URL(config.publicBaseUrl).origin;
  }

  hasSessionCookie(request: FastifyRequest): boolean {
    return sessionTokenOf(request) !== undefined;
  }

  async authenticate(request: FastifyRequest): Promise<LiveSession> {
    const session = await this.sessions.resume(sessionTokenOf(request));
    if (CHANGES.has(request.method) && !this.passesCsrf(request, session)) {
      throw new DomainError('forbidden', 'session.csrfMissing');
    }
    return session;
  }

  private passesCsrf(request: FastifyRequest, session: LiveSession): boolean {
    const token = request.headers['x-csrf-token'];
    if (typeof token === 'string' && sameSecret(token, session.csrfToken)) return true;
    return request.headers.origin === this.ownOrigin;
  }
}
