import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { compile as compileTrust } from '@fastify/proxy-addr';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AppConfig } from '../../config/app-config';
import { buildErrorEnvelope, withRequestId } from '../errors/error-envelope';
import { ErrorLabel } from '../errors/error-label';
import { Locale, negotiateLocale } from '../i18n/locale';
import { MessageKey, message, translate } from '../i18n/messages';

/** Headers must all arrive within this long (or the request timeout, if shorter). */
const HEADERS_TIMEOUT_MS = 10_000;
/** How often Node looks for requests over their time; the default (30 s) would let a slow body live 30 s more. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;
/** Asked of a client refused while the process shuts down. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 1;
/** Asked of a forwarded client over its share of requests at once. */
const ADDRESS_SHARE_RETRY_AFTER_SECONDS = 1;

interface EdgeRefusal {
  status: number;
  label: ErrorLabel;
  key: MessageKey;
}

function refusalOf(code: string | undefined): EdgeRefusal {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, label: 'malformed_request', key: 'request.timeout' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, label: 'malformed_request', key: 'request.headersTooLarge' };
    case 'FST_ERR_BAD_URL':
      return { status: 400, label: 'malformed_request', key: 'request.badUrl' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 414, label: 'malformed_request', key: 'request.pathTooLong' };
    default:
      return { status: 400, label: 'malformed_request', key: 'request.unreadable' };
  }
}

/** The refusal in the envelope; with the request id in `meta` once Fastify has made a request of it. */
function envelopeBody(refusal: EdgeRefusal, locale: Locale, requestId?: string): string {
  const envelope = buildErrorEnvelope(refusal.status, refusal.label, translate(locale, message(refusal.key)));
  return JSON.stringify(requestId ? withRequestId(envelope, requestId) : envelope);
}

/** `::ffff:10.0.0.7` (an IPv4 client of a dual-stack socket) is `10.0.0.7`, as TRUST_PROXY and logs name it. */
function clientAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** Whether an address is one of the proxies TRUST_PROXY names (any, for `true`), as Fastify decides it. */
export function isTrustedProxy(trust: AppConfig['trustProxy']): (address: string) => boolean {
  if (trust === false) return () => false;
  if (trust === true) return () => true;
  const trusts = compileTrust(trust);
  return (address) => trusts(address, 0);
}

/** Counts of what each address holds open, forgetting an address when it holds nothing. */
class AddressCounts {
  private readonly counts = new Map<string, number>();

  /** Takes one for `address` unless it already holds `max`; false when it does. */
  take(address: string, max: number): boolean {
    const held = this.counts.get(address) ?? 0;
    if (held >= max) return false;
    this.counts.set(address, held + 1);
    return true;
  }

  release(address: string): void {
    const held = (this.counts.get(address) ?? 1) - 1;
    if (held > 0) this.counts.set(address, held);
    else this.counts.delete(address);
  }
}

/**
 * One address's share of the connections, `HTTP_MAX_CONNECTIONS_PER_ADDRESS`, decided when a connection is
 * accepted, before any of its bytes is read: a connection over the share is closed at once, unanswered, as
 * `HTTP_MAX_CONNECTIONS` closes one over the total. A proxy's connections carry many clients, so a peer that
 * TRUST_PROXY names is not held to the share here: its forwarded clients are, request by request
 * (`registerAddressShare`), once X-Forwarded-For has been read.
 */
function limitConnectionsPerAddress(server: Server, config: AppConfig): void {
  const isProxy = isTrustedProxy(config.trustProxy);
  const open = new AddressCounts();
  server.prependListener('connection', (socket: Socket) => {
    const address = clientAddress(socket.remoteAddress);
    if (address === undefined || isProxy(address)) return;
    if (!open.take(address, config.httpMaxConnectionsPerAddress)) {
      socket.destroy();
      return;
    }
    socket.once('close', () => open.release(address));
  });
}

/**
 * The share of a client behind a trusted proxy: at most `HTTP_MAX_CONNECTIONS_PER_ADDRESS` of its requests
 * (by the address X-Forwarded-For gives, as TRUST_PROXY allows) in progress at once, counted from the moment
 * its headers are read until its answer is sent or its connection closes; one more answers 429
 * `rate_limited` with `Retry-After`. Clients that connect directly are held to the share by their connections.
 */
export function registerAddressShare(fastify: FastifyInstance, config: AppConfig): void {
  if (config.trustProxy === false) return;
  const isProxy = isTrustedProxy(config.trustProxy);
  const inProgress = new AddressCounts();
  fastify.addHook('onRequest', (request, reply, done) => {
    const peer = clientAddress(request.raw.socket?.remoteAddress);
    if (peer === undefined || !isProxy(peer)) return done();
    const client = clientAddress(request.ip) ?? peer;
    if (!inProgress.take(client, config.httpMaxConnectionsPerAddress)) {
      const refusal: EdgeRefusal = { status: 429, label: 'rate_limited', key: 'request.addressShareUsed' };
      void reply
        .code(429)
        .header('retry-after', String(ADDRESS_SHARE_RETRY_AFTER_SECONDS))
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-language', request.locale)
        .header('x-request-id', request.id)
        .send(envelopeBody(refusal, request.locale, request.id));
      return;
    }
    reply.raw.once('close', () => inProgress.release(client));
    done();
  });
}

/**
 * Fastify's options for what reaches the service before a route does: requests must arrive whole within
 * `HTTP_REQUEST_TIMEOUT_SECONDS` (headers within 10 s), at most `HTTP_MAX_CONNECTIONS` connections are open and
 * `HTTP_MAX_CONNECTIONS_PER_ADDRESS` from one address, `X-Forwarded-For` is believed only from `TRUST_PROXY`;
 * and the errors the HTTP layer raises itself (a slow request, oversized headers, a bad %-encoding, an
 * over-long path segment) answer in the error envelope.
 */
export function httpEdgeOptions(config: AppConfig): FastifyServerOptions & {
  serverFactory: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
} {
  const requestTimeout = config.httpRequestTimeoutSeconds * 1000;
  return {
    trustProxy: config.trustProxy,
    requestTimeout,
    // Our own 503 in the envelope (registerShutdownRefusal) instead of Fastify's.
    return503OnClosing: false,
    serverFactory: (handler) => {
      const server = createServer(
        {
          requestTimeout,
          headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
          connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
        },
        handler,
      );
      server.maxConnections = config.httpMaxConnections;
      limitConnectionsPerAddress(server, config);
      return server;
    },
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const refusal = refusalOf(error.code);
      const locale = negotiateLocale(request.headers['accept-language'], config.defaultLocale);
      void reply
        .code(refusal.status)
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-language', locale)
        .header('x-request-id', request.id)
        .send(envelopeBody(refusal, locale, request.id));
    },
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
      if (socket.writable && !inFlight?.headersSent) {
        const refusal = refusalOf(error.code);
        const body = envelopeBody(refusal, config.defaultLocale);
        socket.write(
          `HTTP/1.1 ${refusal.status} ${buildErrorEnvelope(refusal.status, refusal.label, '').errors[0].title}\r\n` +
            'Content-Type: application/json; charset=utf-8\r\n' +
            `Content-Language: ${config.defaultLocale}\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n` +
            'Connection: close\r\n\r\n' +
            body,
        );
      }
      socket.destroy();
    },
  };
}

/**
 * Once the process begins to shut down, a new request is answered 503 `service_unavailable` with
 * `Retry-After` and `Connection: close`, in the envelope, while the ones already running finish.
 */
export function registerShutdownRefusal(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    const refusal: EdgeRefusal = { status: 503, label: 'service_unavailable', key: 'request.shuttingDown' };
    void reply
      .code(503)
      .header('retry-after', String(SHUTDOWN_RETRY_AFTER_SECONDS))
      .header('connection', 'close')
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-language', request.locale)
      .header('x-request-id', request.id)
      .send(envelopeBody(refusal, request.locale, request.id));
  });
}
