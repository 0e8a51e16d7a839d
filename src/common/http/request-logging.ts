import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Logger as Pino } from 'pino';
import { maskCpfsInText } from '../logging/logging.module';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A separator a client may put between a CPF's digits in a URL: `.`, `-`, space, `+`, or their %-encodings. */
const URL_CPF_SEPARATOR = String.raw`(?:[.\- +]|%2[0BbDdEe])`;
/** Eleven digits with up to three separators between any two, not part of a longer run of digits. */
const CPF_IN_URL = new RegExp(String.raw`(?<!\d)\d(?:${URL_CPF_SEPARATOR}{0,3}\d){10}(?!\d)`, 'g');

/** Masks CPFs in a URL however they are written: `987.654.321-00`, `987%20654%20321%2000`, `987+654+321+00`. */
export function maskCpfsInUrl(url: string): string {
  return maskCpfsInText(
    url.replace(CPF_IN_URL, (found) => {
      const digits = found.replace(/%2[0BbDdEe]/g, '').replace(/\D/g, '');
      return `${digits.slice(0, 3)}.***.***-${digits.slice(9)}`;
    }),
  );
}

/** The confirmation endpoint's path holds a capability token: logs show `…/webhook_confirmations/***`. */
export function maskUrl(url: string): string {
  return maskCpfsInUrl(url.replace(/(\/webhook_confirmations\/)[^/?#]+/g, '$1***'));
}

/** The caller's `x-request-id` when it is a sane token, a new UUID otherwise. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Echoes the request id and logs one line per request when it ends: debug for success, info for a refusal,
 * error for a failure, so a production log at info holds every refusal but not the turnstiles' routine.
 * Headers and bodies are never logged; CPFs and confirmation tokens in URLs are masked.
 */
export function registerRequestLogging(fastify: FastifyInstance, logger: Pino): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          requestId: request.id,
          req: { id: request.id, method: request.method, url: maskUrl(request.originalUrl) },
          res: { statusCode: status },
          responseTime: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
    }
    done();
  });
}
