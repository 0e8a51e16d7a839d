import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { AcceptsCredentials } from '../../common/swagger/security';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { Role } from '../accounts/entities/account.entity';
import { SessionAuthenticator } from '../accounts/session-authenticator';
import type { LiveSession } from '../accounts/session.service';
import { AuthenticatedPlace } from './auth.types';
import { Caller } from './caller';
import { ACCESS_TOKEN, ADMIN_TOKEN, CONSOLE_SESSION, PLACE_KEY } from './credential-schemes';
import { API_KEY_STRATEGY } from './strategies/api-key.strategy';
import { invalidApiKey } from './place-key-cache';
import { JWT_STRATEGY } from './strategies/jwt.strategy';

@Injectable()
@AcceptsCredentials(PLACE_KEY)
export class ApiKeyGuard extends AuthGuard(API_KEY_STRATEGY) {
  override handleRequest<T = AuthenticatedPlace>(err: unknown, user: T | false): T {
    if (err) throw err;
    if (!user) throw invalidApiKey();
    return user;
  }
}

@Injectable()
@AcceptsCredentials(ACCESS_TOKEN)
export class BearerGuard extends AuthGuard(JWT_STRATEGY) {
  override handleRequest<T = AuthenticatedPlace>(err: unknown, user: T | false, info: unknown): T {
    if (err) throw err;
    if (user) return user;
    if (info instanceof Error && info.name === 'TokenExpiredError') {
      throw new DomainError('token_expired');
    }
    if (info instanceof Error && info.message === 'No auth token') {
      throw new DomainError('invalid_token', 'auth.bearerMissing');
    }
    throw new DomainError('invalid_token');
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who calls the `/admin` API, set by AdminGuard. */
    caller?: Caller;
    /** The console session of the request, set by AdminGuard or SessionGuard. */
    liveSession?: LiveSession;
  }
}

/** Roles besides operator that may call a route (`@Roles('support', 'gym')`); operators may call every route. */
export const ROLES_METADATA = 'admin:roles';

/**
 * Control-panel guard. `Authorization: Bearer <ADMIN_API_TOKEN>` (compared in constant time) acts as an
 * operator; without an Authorization header, the console's session cookie acts as its account, within its
 * role's routes (403 `forbidden` otherwise) and with the CSRF rule on changes.
 */
@Injectable()
@AcceptsCredentials(ADMIN_TOKEN, CONSOLE_SESSION)
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionAuthenticator,
    private readonly reflector: Reflector,
  ) {
    this.expected = Buffer.from(config.adminApiToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    if (header === undefined && this.sessions.hasSessionCookie(request)) {
      const session = await this.sessions.authenticate(request);
      const allowed =
        this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_METADATA, [
          context.getHandler(),
          context.getClass(),
        ]) ?? [];
      const { role } = session.account;
      if (role !== 'operator' && !allowed.includes(role)) {
        throw new DomainError('forbidden', message('auth.roleForbidden', { role }));
      }
      request.liveSession = session;
      request.caller = Caller.session(session.account, request);
      return true;
    }
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    if (!match) throw new DomainError('invalid_token', 'auth.adminTokenMissing');
    const given = Buffer.from(match[1].trim());
    if (given.length !== this.expected.length || !timingSafeEqual(given, this.expected)) {
      throw new DomainError('invalid_token', 'auth.adminTokenInvalid');
    }
    request.caller = Caller.adminToken(request);
    return true;
  }
}

/** `/account/session`: the console session cookie (401 `invalid_session` without a live one), CSRF on changes. */
@Injectable()
@AcceptsCredentials(CONSOLE_SESSION)
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const session = await this.sessions.authenticate(request);
    request.liveSession = session;
    request.caller = Caller.session(session.account, request);
    return true;
  }
}
