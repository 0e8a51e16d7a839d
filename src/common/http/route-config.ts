import type { FastifyRequest } from 'fastify';

/** Per-route options that the HTTP layer reads, set on a handler with Nest's `@RouteConfig(...)`. */
export interface HttpRouteConfig {
  /**
   * `object`: each error's `source` is one `{label, message}` object, and a 404 also carries
   * `"message": "not found"` at the top: the confirmation endpoint's shape, as the platform it mirrors sends it.
   */
  errorSource?: 'object';
  /** The body is never read, whatever its content type says (the route takes none). */
  ignoreBody?: boolean;
}

export function routeConfigOf(request: FastifyRequest): HttpRouteConfig {
  return (request.routeOptions?.config ?? {}) as HttpRouteConfig;
}
