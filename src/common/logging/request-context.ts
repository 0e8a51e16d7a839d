import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * What the work of a request needs to know of it, handed down by its controller (see `Origin`): its id, stored
 * with the events it causes so that every attempt to deliver one names it, and where to note the place it turned
 * out to concern.
 *
 * Passed explicitly rather than kept in an AsyncLocalStorage: on Node 20 such a storage runs hooks around every
 * promise of the process once it is used, measured at a tenth of the process's CPU per validate
 * (docs/performance.md).
 */
export interface RequestOrigin {
  readonly requestId: string;
  /** Notes the place the request concerns when no key named it (a confirmation by its endpoint). */
  notePlace(placeId: string): void;
}

const NOTED_PLACE = Symbol('notedPlace');

type RequestWithPlace = FastifyRequest & { [NOTED_PLACE]?: string };

/** The origin of `request`. */
export function originOf(request: FastifyRequest): RequestOrigin {
  return {
    requestId: String(request.id),
    notePlace: (placeId) => ((request as RequestWithPlace)[NOTED_PLACE] = placeId),
  };
}

/** The place noted through the request's origin while it was served, for what is counted after the answer. */
export function notedPlaceOf(request: FastifyRequest): string | undefined {
  return (request as RequestWithPlace)[NOTED_PLACE];
}

/** The RequestOrigin of the request a controller serves. */
export const Origin = createParamDecorator((_data: unknown, context: ExecutionContext): RequestOrigin =>
  originOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
