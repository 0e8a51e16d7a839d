import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AuthenticatedPlace } from './auth.types';
import type { Role } from '../accounts/entities/account.entity';
import type { LiveSession } from '../accounts/session.service';
import { AuditActor, Caller, placeActor } from './caller';
import { AdminGuard, ApiKeyGuard, BearerGuard, ROLES_METADATA, SessionGuard } from './guards';

/** `x-api-key: <PLACE_API_KEY>`: check-in and app routes. */
export const ApiKeyAuth = () =>
  applyDecorators(UseGuards(ApiKeyGuard), ApiErrorResponses({ 401: ['invalid_api_key'] }));

/** `Authorization: Bearer <ACCESS_TOKEN>` from POST /partner/auth: `/partner/*` routes. */
export const BearerAuth = () =>
  applyDecorators(UseGuards(BearerGuard), ApiErrorResponses({ 401: ['invalid_token', 'token_expired'] }));

/**
 * The control panel: `Authorization: Bearer <ADMIN_API_TOKEN>` (an operator), or a console session cookie
 * within its role (see `Roles`).
 */
export const AdminAuth = () =>
  applyDecorators(
    UseGuards(AdminGuard),
    ApiExtension('x-roles', ['operator']),
    ApiErrorResponses({ 401: ['invalid_token', 'invalid_session'], 403: ['forbidden'] }),
  );

/**
 * Roles besides operator that may call this `/admin` route with a session. Without it, operators only (and the
 * admin token). Swagger shows them as `x-roles`.
 */
export const Roles = (...roles: Exclude<Role, 'operator'>[]) =>
  applyDecorators(SetMetadata(ROLES_METADATA, roles), ApiExtension('x-roles', ['operator', ...roles]));

/** `/account/session`: the console session cookie alone. */
export const SessionAuth = () =>
  applyDecorators(
    UseGuards(SessionGuard),
    ApiErrorResponses({ 401: ['invalid_session'], 403: ['forbidden'] }),
  );

/** Who calls an `/admin` route (set by AdminAuth or SessionAuth). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<FastifyRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without AdminAuth or SessionAuth');
  return caller;
});

/** The console session of a SessionAuth route. */
export const CurrentSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): LiveSession => {
    const session = context.switchToHttp().getRequest<FastifyRequest>().liveSession;
    if (!session) throw new Error('CurrentSession used on a route without SessionAuth');
    return session;
  },
);

/** The place resolved by ApiKeyAuth or BearerAuth. */
export const CurrentPlace = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedPlace => {
    return context.switchToHttp().getRequest<FastifyRequest & { user: AuthenticatedPlace }>().user;
  },
);

/** The place of a BearerAuth route as the author of a change, for the audit log. */
export const PlaceAsActor = createParamDecorator((_data: unknown, context: ExecutionContext): AuditActor => {
  const request = context.switchToHttp().getRequest<FastifyRequest & { user: AuthenticatedPlace }>();
  return placeActor(request.user, request);
});
