import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';

interface RequestContext {
  requestId: string;
  /** The place a request turned out to concern when no key named it (a confirmation by its endpoint). */
  placeId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();
const CONTEXT = Symbol('requestContext');

type RequestWithContext = FastifyRequest & { [CONTEXT]?: RequestContext };

/** The id of the request being served (or of the request that caused the webhook attempt), if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** Runs `work` as part of the request `requestId`: a webhook attempt as part of the request that caused it. */
export function runWithRequestId<T>(requestId: string | null | undefined, work: () => T): T {
  return requestId ? storage.run({ requestId }, work) : work();
}

/** Notes the place the request being served concerns, for what is counted after the answer (CheckInTally). */
export function noteRequestPlace(placeId: string): void {
  const context = storage.getStore();
  if (context) context.placeId = placeId;
}

/** The place noted by `noteRequestPlace` while the request was served. */
export function notedPlaceOf(request: FastifyRequest): string | undefined {
  return (request as RequestWithContext)[CONTEXT]?.placeId;
}

/**
 * Makes the request id the context of everything that serves the request (hooks, body parsing, handler,
 * exception filter), so that every log line carries it: see the logger's mixin.
 */
export function registerRequestContext(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const context: RequestContext = { requestId: request.id };
    (request as RequestWithContext)[CONTEXT] = context;
    storage.run(context, done);
  });
}
