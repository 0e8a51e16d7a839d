import type { FastifyInstance } from 'fastify';
import { DomainError } from '../errors/domain-error';
import { message } from '../i18n/messages';
import { routeConfigOf } from './route-config';

export const DEFAULT_BODY_LIMIT = 100 * 1024;
/** Bulk import carries up to 10,000 beneficiaries. */
export const BULK_BODY_LIMIT = 10 * 1024 * 1024;
export const BULK_PATHS = ['/admin/beneficiaries/bulk'];
/** No body of this API nests deeper than 4; 32 leaves room and stays far from the parser's and validator's stacks. */
export const MAX_JSON_DEPTH = 32;
/** The widest object of this API has 9 fields; 100 leaves room for a client's extra fields. */
export const MAX_OBJECT_FIELDS = 100;
/** Values (array elements and object fields, at every level) of a body: the largest other body has ~510. */
export const MAX_JSON_VALUES = 2_000;
/** A bulk import's: its 10,000 rows (MAX_BULK_ROWS) and up to 11 fields per row on average (8 are its own). */
export const BULK_JSON_VALUES = 120_000;

export interface JsonShapeLimits {
  maxDepth: number;
  maxObjectFields: number;
  maxValues: number;
}

/** What a body's shape breaks first, if anything. */
export type JsonShapeProblem = 'tooDeep' | 'tooManyFields' | 'tooManyValues';

const isJsonSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * What the JSON text breaks of `limits`, told by one pass over its characters that stops at the first excess,
 * before anything parses it: arrays or objects nested too deep (5,000 levels would overflow the validator's
 * stack, 2,000,000 hold `JSON.parse` for seconds), an object with too many fields, or too many values in all.
 * The last two bound what the validation pipe does with a body: class-transformer walks every value of it,
 * and compares each key of an object with every other one (`keys.filter(indexOf)`), so an object of n fields
 * cost n² (100,000 fields: 14 s of a frozen event loop). Characters inside strings do not count.
 */
export function jsonShapeProblem(text: string, limits: JsonShapeLimits): JsonShapeProblem | undefined {
  // Per open array or object: its fields or elements so far, whether it is an object, whether one has started.
  const members = new Uint32Array(limits.maxDepth + 1);
  const isObject = new Uint8Array(limits.maxDepth + 1);
  const started = new Uint8Array(limits.maxDepth + 1);
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isJsonSpace(c)) continue;
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
      continue;
    }
    if (depth > 0) {
      if (c === 0x2c /* , */) {
        members[depth]++;
        if (++values > limits.maxValues) return 'tooManyValues';
        if (isObject[depth] && members[depth] > limits.maxObjectFields) return 'tooManyFields';
        continue;
      }
      if (!started[depth]) {
        started[depth] = 1;
        members[depth] = 1;
        if (++values > limits.maxValues) return 'tooManyValues';
      }
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limits.maxDepth) return 'tooDeep';
      members[depth] = 0;
      started[depth] = 0;
      isObject[depth] = c === 0x7b ? 1 : 0;
    } else if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const inside = text.charCodeAt(i);
        if (inside === 0x5c /* backslash */) i++;
        else if (inside === 0x22) break;
      }
    }
  }
  return undefined;
}

/** Parameters of a query, a repeated one once per value: the validation pipe walks the query as it does a body. */
function queryValueCount(query: unknown): number {
  if (typeof query !== 'object' || query === null) return 0;
  let count = 0;
  for (const value of Object.values(query)) count += Array.isArray(value) ? value.length : 1;
  return count;
}

function shapeRefusal(problem: JsonShapeProblem, limits: JsonShapeLimits): DomainError {
  switch (problem) {
    case 'tooDeep':
      return new DomainError('malformed_request', 'request.bodyTooDeep');
    case 'tooManyFields':
      return new DomainError(
        'malformed_request',
        message('request.bodyTooManyFields', { max: limits.maxObjectFields }),
      );
    case 'tooManyValues':
      return new DomainError(
        'payload_too_large',
        message('request.bodyTooManyValues', { max: limits.maxValues }),
      );
  }
}

/**
 * Every body is read as JSON whatever its content type (clients of this contract do not always send one),
 * must be an object. Refusals go through the global exception filter like any other error: a body that is
 * not a JSON object, nests deeper than `MAX_JSON_DEPTH` or has an object of more than `MAX_OBJECT_FIELDS`
 * fields is 400 `malformed_request`; one over the route's size limit (Fastify's) or its count of values
 * (`MAX_JSON_VALUES`, `BULK_JSON_VALUES`) 413 `payload_too_large`. So the work any accepted body causes is
 * linear in its size, and bounded.
 * Bodiless writes get `{}`, so their validation names the missing fields; so do routes that take no body
 * (`ignoreBody`), whatever is sent.
 */
export function registerBodyParsing(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (BULK_PATHS.includes(route.url)) {
      route.bodyLimit = BULK_BODY_LIMIT;
      route.config = { ...route.config, maxJsonValues: BULK_JSON_VALUES } as typeof route.config;
    }
  });
  // Fastify's own JSON parser, which also refuses __proto__ and constructor.prototype keys.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (request, raw, done) => {
    const text = String(raw);
    const config = routeConfigOf(request);
    if (text.trim() === '' || config.ignoreBody) return done(null, {});
    const limits: JsonShapeLimits = {
      maxDepth: MAX_JSON_DEPTH,
      maxObjectFields: MAX_OBJECT_FIELDS,
      maxValues: config.maxJsonValues ?? MAX_JSON_VALUES,
    };
    const problem = jsonShapeProblem(text, limits);
    if (problem) return done(shapeRefusal(problem, limits), undefined);
    parseJson(request, text, (error: Error | null, body?: unknown) => {
      if (error) return done(new DomainError('malformed_request', 'request.bodyNotJson'), undefined);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return done(new DomainError('malformed_request', 'request.bodyNotObject'), undefined);
      }
      done(null, body);
    });
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (queryValueCount(request.query) > MAX_OBJECT_FIELDS) {
      return done(
        new DomainError(
          'malformed_request',
          message('request.queryTooManyFields', { max: MAX_OBJECT_FIELDS }),
        ),
      );
    }
    if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD')
      request.body = {};
    done();
  });
}
