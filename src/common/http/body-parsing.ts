import type { FastifyInstance } from 'fastify';
import { DomainError } from '../errors/domain-error';
import { routeConfigOf } from './route-config';

export const DEFAULT_BODY_LIMIT = 100 * 1024;
/** Bulk import carries up to 10,000 beneficiaries. */
export const BULK_BODY_LIMIT = 10 * 1024 * 1024;
export const BULK_PATHS = ['/admin/beneficiaries/bulk'];
/** No body of this API nests deeper than 4; 32 leaves room and stays far from the parser's and validator's stacks. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text opens more than `max` arrays or objects inside each other, told by one pass over the
 * characters that stops at the first level too deep: a body nested 5,000 levels would overflow the stack of
 * the validator (and one nested 2,000,000 levels would hold the event loop for seconds in `JSON.parse`), so it
 * is refused before it is parsed. Brackets inside strings do not count.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* backslash */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

/**
 * Every body is read as JSON whatever its content type (clients of this contract do not always send one),
 * must be an object. Refusals go through the global exception filter like any other error: a body that is
 * not a JSON object, or that nests deeper than `MAX_JSON_DEPTH`, is 400 `malformed_request`, one over the route's limit Fastify's 413 (`payload_too_large`).
 * Bodiless writes get `{}`, so their validation names the missing fields; so do routes that take no body
 * (`ignoreBody`), whatever is sent.
 */
export function registerBodyParsing(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (BULK_PATHS.includes(route.url)) route.bodyLimit = BULK_BODY_LIMIT;
  });
  // Fastify's own JSON parser, which also refuses __proto__ and constructor.prototype keys.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (request, raw, done) => {
    const text = String(raw);
    if (text.trim() === '' || routeConfigOf(request).ignoreBody) return done(null, {});
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(new DomainError('malformed_request', 'request.bodyTooDeep'), undefined);
    }
    parseJson(request, text, (error: Error | null, body?: unknown) => {
      if (error) return done(new DomainError('malformed_request', 'request.bodyNotJson'), undefined);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return done(new DomainError('malformed_request', 'request.bodyNotObject'), undefined);
      }
      done(null, body);
    });
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD')
      request.body = {};
    done();
  });
}
