import {
  applyDecorators,
  CanActivate,
  Controller,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExtraModels, ApiHeader, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { hashKey, isPlaceShapedKey } from '../../common/crypto/key-vault';
import { DomainError } from '../../common/errors/domain-error';
import { HttpRouteConfig } from '../../common/http/route-config';
import { AcceptsCredentials, CredentialScheme } from '../../common/swagger/security';
import { message } from '../../common/i18n/messages';
import { AuditActor, placeActor } from '../auth/caller';
import { PLACE_KEY } from '../auth/credential-schemes';
import {
  AccessControlRepository,
  AccessCredential,
  AccessGym,
  AccessGymKey,
} from './access-control.repository';
import { AccessErrorDto, AccessForbiddenDto } from './dto/access-control.dto';
import { DEMO_GYM_ID } from './dto/access-examples';

export const ACCESS_TAG = 'Wellhub-compatible access control';

/** The partner's or the place's API key as a bearer, as that platform's token is sent. */
export const ACCESS_KEY: CredentialScheme = {
  name: 'access-key',
  scheme: {
    type: 'http',
    scheme: 'bearer',
    description: "The partner's or the place's API key (Wellhub-compatible routes)",
  },
};

/** Where a route names its gym: the `X-Gym-Id` header, the `:gym_id` path segment, or nowhere. */
export type GymFrom = 'header' | 'path' | 'none';
const GYM_FROM = 'access:gym-from';
const HANDLER_READS_GYM = 'access:handler-reads-gym';
const MAX_KEY_LENGTH = 256;

declare module 'fastify' {
  interface FastifyRequest {
    /** The gym of a Wellhub-compatible route, set by AccessGuard. */
    accessGym?: AccessGym;
    /** The key's owner on a route that names no gym, set by AccessGuard. */
    accessCredential?: AccessCredential;
    /** The key and the gym named, unread, on a route whose handler reads the gym (`handlerReadsGym`). */
    accessGymKey?: AccessGymKey;
  }
}

function unauthorized(): DomainError {
  return new DomainError('invalid_api_key', message('access.unauthorized'), {
    accessKey: 'auth.unauthorized',
  });
}

function forbidden(
  key: Parameters<typeof message>[0],
  params?: Record<string, string | number>,
): DomainError {
  return new DomainError('forbidden', message(key, params));
}

/**
 * Why a key does not reach the gym named (`gymId`, undefined when none is): 401 when the key is no one's, else
 * 403. One read.
 */
export async function accessRefusal(
  repository: AccessControlRepository,
  hash: string,
  gymId: number | undefined,
): Promise<DomainError> {
  return refusalOf(await repository.credentialOf(hash), gymId);
}

/** accessRefusal for a key whose owner (`credential`, undefined when no one's) was read already. */
export function refusalOf(credential: AccessCredential | undefined, gymId: number | undefined): DomainError {
  if (!credential) return unauthorized();
  return gymId === undefined
    ? forbidden('access.gymRequired')
    : forbidden('access.gymNotCovered', { gym: gymId });
}

/** `Authorization: Bearer <key>`, or the legacy `X-Api-Key: <key>`. */
function presentedKey(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const header = request.headers['x-api-key'];
  const key = bearer ?? (typeof header === 'string' ? header.trim() : undefined);
  return key && key.length <= MAX_KEY_LENGTH ? key : undefined;
}

/** A gym_id as sent: a positive integer, else undefined. */
function gymNumber(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^\s*[1-9]\d{0,9}\s*$/.test(raw)) return undefined;
  const value = Number(raw);
  return value <= 4_294_967_295 ? value : undefined;
}

/**
 * The credentials of the Wellhub-compatible routes: the partner's or the place's API key, as a bearer or in
 * `X-Api-Key`. Missing or unknown: 401 `auth.unauthorized`. A known key that does not cover the gym named (or
 * no such gym, or none named where one is required, or a header that contradicts the path): 403.
 * One indexed read on success (the gym by gym_id, with whether the key is its place's or its partner's); a
 * second, to tell 401 from 403, only on refusal. A route with `handlerReadsGym` gets the key and the gym_id
 * unread (CurrentGymKey) and reads the gym with its own first statement. Nothing is cached: a rotated key stops
 * at once.
 */
@Injectable()
// The legacy X-Api-Key header is the place key's scheme (a partner's key works in it too).
@AcceptsCredentials(ACCESS_KEY, PLACE_KEY)
export class AccessGuard implements CanActivate {
  constructor(
    private readonly repository: AccessControlRepository,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const from = this.reflector.get<GymFrom | undefined>(GYM_FROM, context.getHandler()) ?? 'header';
    const key = presentedKey(request);
    if (!key) throw unauthorized();
    const hash = hashKey(key);
    if (from === 'none') {
      const credential = await this.repository.credentialOf(hash);
      if (!credential) throw unauthorized();
      request.accessCredential = credential;
      return true;
    }
    const gymId = this.requestedGym(request, from);
    if (gymId !== undefined && this.reflector.get<boolean>(HANDLER_READS_GYM, context.getHandler())) {
      request.accessGymKey = { hash, gymId, placeShaped: isPlaceShapedKey(key) };
      return true;
    }
    const gym = gymId === undefined ? undefined : await this.repository.gymForKey(hash, gymId);
    if (gym) {
      request.accessGym = gym;
      return true;
    }
    throw await accessRefusal(this.repository, hash, gymId);
  }

  private requestedGym(request: FastifyRequest, from: Exclude<GymFrom, 'none'>): number | undefined {
    const header = request.headers['x-gym-id'];
    const fromHeader = typeof header === 'string' ? header : undefined;
    if (from === 'header') return gymNumber(fromHeader);
    const inPath = (request.params as Record<string, string | undefined>).gym_id;
    const gymId = gymNumber(inPath);
    if (fromHeader !== undefined && gymId !== undefined && gymNumber(fromHeader) !== gymId) {
      throw forbidden('access.gymMismatch', { header: fromHeader, gym: gymId });
    }
    return gymId;
  }
}

/** A controller of Wellhub-compatible routes, in that contract's Swagger tag. */
export const AccessController = (path: string) => applyDecorators(ApiTags(ACCESS_TAG), Controller(path));

/**
 * A Wellhub-compatible route: AccessGuard with the gym named as `from` says, errors in that platform's shapes
 * (`errorShape: access`), its own Swagger tag, security and error answers. `handlerReadsGym`: the guard leaves
 * the gym unread for the handler (CurrentGymKey), which reads it with what it reads first, saving a round trip.
 */
export const AccessAuth = (
  from: GymFrom,
  config: HttpRouteConfig = {},
  { handlerReadsGym = false }: { handlerReadsGym?: boolean } = {},
) =>
  applyDecorators(
    SetMetadata(GYM_FROM, from),
    SetMetadata(HANDLER_READS_GYM, handlerReadsGym),
    UseGuards(AccessGuard),
    RouteConfig({ ...config, errorShape: 'access' } satisfies HttpRouteConfig),
    ApiExtraModels(AccessErrorDto, AccessForbiddenDto),
    ...(from === 'path'
      ? [ApiParam({ name: 'gym_id', example: String(DEMO_GYM_ID), description: "The gym's gym_id" })]
      : []),
    ...(from === 'none'
      ? []
      : [
          ApiHeader({
            name: 'X-Gym-Id',
            required: from === 'header',
            description:
              from === 'header'
                ? 'The gym: its `gym_id` (shown in the console, integration tab)'
                : "Optional; when sent it must equal the path's gym_id (otherwise 403)",
            example: String(DEMO_GYM_ID),
          }),
        ]),
    ApiResponse({
      status: 401,
      description: 'Missing or unknown key: `auth.unauthorized`',
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(AccessErrorDto) },
          example: {
            metadata: { total: 0, errors: 1 },
            errors: [
              { message: 'Envie a chave de API ...', key: 'auth.unauthorized', label: 'invalid_api_key' },
            ],
          },
        },
      },
    }),
    ...(from === 'none'
      ? []
      : [
          ApiResponse({
            status: 403,
            description: 'A known key that does not cover the gym (or no such gym)',
            content: {
              'application/json': {
                schema: { $ref: getSchemaPath(AccessForbiddenDto) },
                example: { Message: 'Esta chave não dá acesso à academia 100002.' },
              },
            },
          }),
        ]),
  );

/** The gym resolved by AccessAuth('header' | 'path'). */
export const CurrentGym = createParamDecorator((_data: unknown, context: ExecutionContext): AccessGym => {
  const gym = context.switchToHttp().getRequest<FastifyRequest>().accessGym;
  if (!gym) throw new Error('CurrentGym used on a route without AccessAuth naming a gym');
  return gym;
});

/** The key and the gym_id of a route with AccessAuth's `handlerReadsGym`, unread. */
export const CurrentGymKey = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AccessGymKey => {
    const key = context.switchToHttp().getRequest<FastifyRequest>().accessGymKey;
    if (!key) throw new Error('CurrentGymKey used on a route without handlerReadsGym');
    return key;
  },
);

/** The key's owner resolved by AccessAuth('none'). */
export const CurrentCredential = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AccessCredential => {
    const credential = context.switchToHttp().getRequest<FastifyRequest>().accessCredential;
    if (!credential) throw new Error('CurrentCredential used on a route without AccessAuth');
    return credential;
  },
);

/** The gym of the request as the author of a change, for the audit log. */
export const GymAsActor = createParamDecorator((_data: unknown, context: ExecutionContext): AuditActor => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.accessGym) throw new Error('GymAsActor used on a route without AccessAuth naming a gym');
  return placeActor(request.accessGym, request);
});
