import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthenticatedPlace } from './auth.types';
import { API_KEY_STRATEGY } from './strategies/api-key.strategy';
import { invalidApiKey } from './place-key-cache';
import { JWT_STRATEGY } from './strategies/jwt.strategy';

@Injectable()
export class ApiKeyGuard extends AuthGuard(API_KEY_STRATEGY) {
  override handleRequest<T = AuthenticatedPlace>(err: unknown, user: T | false): T {
    if (err) throw err;
    if (!user) throw invalidApiKey();
    return user;
  }
}

@Injectable()
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

/** Control-panel guard: `Authorization: Bearer <ADMIN_API_TOKEN>`, compared in constant time. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = Buffer.from(config.adminApiToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    if (!match) throw new DomainError('invalid_token', 'auth.adminTokenMissing');
    const given = Buffer.from(match[1].trim());
    if (given.length !== this.expected.length || !timingSafeEqual(given, this.expected)) {
      throw new DomainError('invalid_token', 'auth.adminTokenInvalid');
    }
    return true;
  }
}
