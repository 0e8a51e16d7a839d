import { applyDecorators, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AuthenticatedPlace } from './auth.types';
import { AdminGuard, ApiKeyGuard, BearerGuard } from './guards';

export const API_KEY_SECURITY = 'x-api-key';
export const BEARER_SECURITY = 'bearer';
export const ADMIN_SECURITY = 'admin';

/** `x-api-key: <PLACE_API_KEY>`: check-in and app routes. */
export const ApiKeyAuth = () =>
  applyDecorators(
    UseGuards(ApiKeyGuard),
    ApiSecurity(API_KEY_SECURITY),
    ApiErrorResponses({ 401: ['invalid_api_key'] }),
  );

/** `Authorization: Bearer <ACCESS_TOKEN>` from POST /partner/auth: `/partner/*` routes. */
export const BearerAuth = () =>
  applyDecorators(
    UseGuards(BearerGuard),
    ApiBearerAuth(BEARER_SECURITY),
    ApiErrorResponses({ 401: ['invalid_token', 'token_expired'] }),
  );

/** `Authorization: Bearer <ADMIN_API_TOKEN>`: the control panel. */
export const AdminAuth = () =>
  applyDecorators(
    UseGuards(AdminGuard),
    ApiBearerAuth(ADMIN_SECURITY),
    ApiErrorResponses({ 401: ['invalid_token'] }),
  );

/** The place resolved by ApiKeyAuth or BearerAuth. */
export const CurrentPlace = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedPlace => {
    return context.switchToHttp().getRequest<FastifyRequest & { user: AuthenticatedPlace }>().user;
  },
);
