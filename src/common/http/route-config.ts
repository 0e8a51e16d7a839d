import type { FastifyRequest } from 'fastify';
import type { CheckInOperation } from '../metrics/metrics';

/** Per-route options that the HTTP layer reads, set on a handler with Nest's `@RouteConfig(...)`. */
export interface HttpRouteConfig {
  /**
   * `object`: each error's `source` is one `{label, message}` object, and a 404 also carries
   * `"message": "not found"` at the top: the confirmation endpoint's shape, as the platform it mirrors sends it.
   */
  errorSource?: 'object';
  /**
   * `access`: the Wellhub-compatible routes answer errors in that platform's shapes (access-error-body.ts),
   * not in the service's envelope.
   */
  errorShape?: 'access';
  /** The body is never read, whatever its content type says (the route takes none). */
  ignoreBody?: boolean;
  /** Values (array elements and object fields) a body may hold, when not the default `MAX_JSON_VALUES`. */
  maxJsonValues?: number;
  /** Each answer counts in `checkin_outcomes_total` under this operation, as `success` or its error label. */
  checkInOperation?: CheckInOperation;
}

export function routeConfigOf(request: FastifyRequest): HttpRouteConfig {
  return (request.routeOptions?.config ?? {}) as HttpRouteConfig;
}
