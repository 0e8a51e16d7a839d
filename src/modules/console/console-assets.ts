import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildErrorEnvelope, withRequestId } from '../../common/errors/error-envelope';
import { message, translate } from '../../common/i18n/messages';

export const CONSOLE_PATH = '/console';

/**
 * Where the console's build is: beside main.js in a production build (dist/console), or in the project's
 * dist/console when the service runs from source (ts-node in tests and development).
 */
export function consoleDirectory(): string | null {
  const candidates = [
    join(__dirname, '..', '..', 'console'),
    join(__dirname, '..', '..', '..', 'dist', 'console'),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? null;
}

/**
 * The page may run only the console's own files, talk only to this service and never be framed
 * (key rotation in a hidden frame would be clickjacking). Styles are inline because MUI writes them.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function setHeaders(reply: FastifyReply, path: string): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) void reply.header(name, value);
  // Files under assets/ carry a content hash in their names; index.html must always be fresh.
  void reply.header(
    'cache-control',
    /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
}

/** Serves the console (a single-page app) at /console/, from the service itself. */
export function registerConsole(fastify: FastifyInstance, directory = consoleDirectory()): void {
  if (!directory) {
    fastify.get(`${CONSOLE_PATH}*`, (request, reply: FastifyReply) => {
      const detail = translate(request.locale ?? 'en', message('console.notBuilt'));
      void reply.code(404).send(withRequestId(buildErrorEnvelope(404, 'not_found', detail), request.id));
    });
    return;
  }
  fastify.get(CONSOLE_PATH, (_request, reply: FastifyReply) => {
    void reply.redirect(`${CONSOLE_PATH}/`, 301);
  });
  void fastify.register(fastifyStatic, {
    root: directory,
    prefix: `${CONSOLE_PATH}/`,
    decorateReply: false,
    index: ['index.html'],
    setHeaders,
  });
}
