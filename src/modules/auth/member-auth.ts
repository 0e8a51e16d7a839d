import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AcceptsCredentials } from '../../common/swagger/security';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MEMBER_TOKEN } from './credential-schemes';

/**
 * Member API guard: `Authorization: Bearer <MEMBER_API_TOKEN>`, compared in constant time. The admin token is
 * not this token (the configuration refuses them equal), so neither opens the other's routes.
 */
@Injectable()
@AcceptsCredentials(MEMBER_TOKEN)
export class MemberGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = Buffer.from(config.memberApiToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
    if (!match) throw new DomainError('invalid_token', 'auth.memberTokenMissing');
    const given = Buffer.from(match[1].trim());
    if (given.length !== this.expected.length || !timingSafeEqual(given, this.expected)) {
      throw new DomainError('invalid_token', 'auth.memberTokenInvalid');
    }
    return true;
  }
}

/** `Authorization: Bearer <MEMBER_API_TOKEN>`: the member API, for the platform's app backend. */
export const MemberAuth = () =>
  applyDecorators(UseGuards(MemberGuard), ApiErrorResponses({ 401: ['invalid_token'] }));
