import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP, Socket, TcpNetConnectOpts } from 'node:net';
import { Agent, buildConnector, Dispatcher } from 'undici';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { PublicHttpAgent, PublicHttpsAgent } from '../webhook-addresses';
import { parseRetryAfter } from '../webhook-policy';
import { SignedMessage, signedHeaders } from './signed-headers';

export type { SignedMessage } from './signed-headers';

const RESPONSE_SNIPPET_BYTES = 4096;
/** How long the body of a 2xx answer is read for the delivery log; the attempt has succeeded already. */
const SUCCESS_BODY_GRACE_MS = 500;

/** An answer's status line and headers, as they arrived. */
interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
}

const succeeded = (statusCode: number) => statusCode >= 200 && statusCode < 300;

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  retryAfterMs?: number;
  /** Cut short because this process is stopping: not the receiver's doing, so not an attempt. */
  abandoned?: boolean;
}

/**
 * The attempt's error as the delivery log shows it to the gym. A refusal of the filtering agent names the
 * private address the host resolved to, which would let a partner map the service's network: it is replaced.
 */
function publicError(error: Error): string {
  if (/^DNS lookup .* is not allowed/.test(error.message))
    return 'the target address is not allowed: it resolves to a private, loopback, link-local or metadata address';
  return error.message;
}

const SHUTTING_DOWN = 'aborted: the service is shutting down';
/** As many TLS sessions as an https.Agent keeps by default. */
const MAX_TLS_SESSIONS = 100;
const ATTEMPT_OVER = 'the attempt is over';

/**
 * A kept-alive connection that the receiver closed while it sat idle fails the next request written on it
 * (a reset, a broken pipe or the other side closing, before any answer): the receiver closed it without reading
 * that request. The request goes again on another connection, within the same attempt and deadline (a receiver
 * that did read it gets the same `webhook-id` twice, as with any retry); a few times at most, since the pool may
 * hold several such connections to the same receiver. A connection that had carried no answer yet is new: its
 * failure is the attempt's.
 */
const STALE_CONNECTION_RETRIES = 3;
/** Set on a connection's error when that connection had received bytes before it (see `connect`). */
const AFTER_ANSWERS = Symbol('afterAnswers');
type ConnectionError = Error & { code?: string; [AFTER_ANSWERS]?: boolean; socket?: { bytesRead?: number } };

/**
 * A reset, a broken pipe or the other side closing (undici's `other side closed`; not its `bad response`, an
 * answer it refused, such as an unasked-for `100 Continue`), on a connection that had received bytes before:
 * with one request at a time on a connection, those are earlier answers, unless the receiver cut a new
 * connection inside the first answer's status line (then the request goes again, as with any retry).
 */
function isStaleConnection(error: ConnectionError): boolean {
  const reused = error[AFTER_ANSWERS] === true || (error.socket?.bytesRead ?? 0) > 0;
  if (!reused) return false;
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return true;
  return error.code === 'UND_ERR_SOCKET' && error.message === 'other side closed';
}

/**
 * One signed POST (Standard Webhooks), over undici's pool of kept-alive connections per receiver (its own
 * dispatch API: about half the CPU per request of node:http's client, see docs/performance.md). Connections are
 * made by the filtering agents: private, loopback, link-local and metadata addresses are refused when the
 * connection is made (so DNS names that resolve to them are refused too) unless allowed by config. Redirects
 * are never followed: a 3xx is a failure. When the process begins to stop, attempts in flight are cut short at
 * once (and none starts), instead of holding the shutdown for up to WEBHOOK_TIMEOUT_MS, and connections still
 * being made are closed: an attempt still waiting for its answer is abandoned (not logged, no attempt spent: its
 * delivery is due again at once, for this process's next run or another's), one whose status line has arrived
 * ends as that status decides.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly inFlight = new Set<(error: Error) => void>();
  /** Connections being made (not yet handed to the pool): closed when the process begins to stop. */
  private readonly connecting = new Set<Socket>();
  private stopping = false;
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;
  private readonly dispatcher: Agent;
  /**
   * The latest TLS session of each https receiver (`host:port`), offered when the next connection to it is made
   * so that the handshake resumes instead of starting over, as an https.Agent does for its own connections.
   */
  private readonly tlsSessions = new Map<string, Buffer>();
  /** The last URL parsed: a run sends its whole batch to one URL. */
  private lastTarget?: { text: string; origin: string; path: string };

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.httpAgent = new PublicHttpAgent(!config.webhookAllowPrivateNetworks);
    this.httpsAgent = new PublicHttpsAgent(!config.webhookAllowPrivateNetworks);
    this.dispatcher = new Agent({ connect: (options, callback) => this.connect(options, callback) });
  }

  onModuleDestroy(): void {
    this.stopping = true;
    for (const abort of this.inFlight) abort(new Error(SHUTTING_DOWN));
    for (const socket of this.connecting) socket.destroy(new Error(SHUTTING_DOWN));
    this.dispatcher.destroy().catch(() => undefined);
  }

  /**
   * WEBHOOK_TIMEOUT_MS bounds the whole attempt (connect, answer and body), so a receiver that trickles
   * bytes or never ends its answer cannot hold a worker. A 2xx status is a success as soon as it arrives:
   * its body is read for at most 0.5 s more (for the log), and a receiver that trickles it cannot turn the
   * success into a timeout. The first 4 KB of an answer are kept; the status code decides the attempt.
   */
  send(message: SignedMessage): Promise<SendResult> {
    const started = Date.now();
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let controller: Dispatcher.DispatchController | undefined;
      let answer: Answer | undefined;
      let complete = false;
      const chunks: Buffer[] = [];
      let size = 0;
      let grace: NodeJS.Timeout | undefined;
      const snippet = () =>
        chunks.length === 0
          ? null
          : Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8') || null;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearTimeout(grace);
        this.inFlight.delete(cutShort);
        // A receiver still sending must not keep the connection, nor hand it to the next attempt.
        if (!complete) controller?.abort(new Error(ATTEMPT_OVER));
        result.durationMs = Date.now() - started;
        resolve(result);
      };
      const failed = (error: Error) =>
        finish({
          ok: false,
          durationMs: 0,
          statusCode: answer?.statusCode ?? null,
          responseBody: snippet(),
          error: publicError(error),
          ...(error.message === SHUTTING_DOWN && { abandoned: true }),
        });
      const answered = () => finish(this.outcome(answer as Answer, snippet()));
      // Once the status line has arrived it decides the attempt, whatever cuts its body short: the deadline (a
      // 503 still sending its body keeps its Retry-After) or the shutdown (the receiver has the event: the attempt
      // is logged, not abandoned and sent again).
      const cutShort = (error: Error) => (answer ? answered() : failed(error));
      const deadline = setTimeout(
        () => cutShort(new Error(`timed out after ${this.config.webhookTimeoutMs} ms`)),
        this.config.webhookTimeoutMs,
      );
      if (this.stopping) return failed(new Error(SHUTTING_DOWN));
      this.inFlight.add(cutShort);
      let target: { origin: string; path: string };
      let headers: Record<string, string>;
      try {
        target = this.targetOf(message.url);
        headers = signedHeaders(message);
      } catch (error) {
        // A URL or a format the sender cannot use: the attempt fails, as a refused connection does.
        return failed(error as Error);
      }
      const { origin, path } = target;
      const write = (retriesLeft: number) => {
        const handler: Dispatcher.DispatchHandler = {
          onRequestStart: (request) => {
            controller = request;
            // The attempt ended (its deadline, the shutdown) while the request waited for a connection.
            if (settled) request.abort(new Error(ATTEMPT_OVER));
          },
          onResponseStart: (_, statusCode, responseHeaders) => {
            // 1xx answers are informational: the final one follows.
            if (settled || statusCode < 200) return;
            answer = { statusCode, headers: responseHeaders };
            // A success is decided: the body may add a snippet for the log, but not hold the worker.
            if (succeeded(statusCode)) grace = setTimeout(answered, SUCCESS_BODY_GRACE_MS);
          },
          onResponseData: (_, chunk) => {
            if (settled) return;
            chunks.push(chunk);
            size += chunk.length;
            if (size >= RESPONSE_SNIPPET_BYTES) answered();
          },
          onResponseEnd: () => {
            complete = true;
            if (answer) answered();
          },
          onResponseError: (_, error: ConnectionError) => {
            if (settled) return;
            // Cut off mid-answer: the status code still decides.
            if (answer) return answered();
            if (retriesLeft > 0 && !this.stopping && isStaleConnection(error)) return write(retriesLeft - 1);
            failed(error);
          },
        };
        try {
          this.dispatcher.dispatch({ origin, path, method: 'POST', headers, body: message.payload }, handler);
        } catch (error) {
          failed(error as Error);
        }
      };
      write(STALE_CONNECTION_RETRIES);
    });
  }

  /**
   * A connection for the pool, made by the filtering agent of its protocol: an address typed in the URL is
   * refused at once, a name when it resolves to a refused address. Errors of a connection that had received
   * answers before are marked so (see isStaleConnection). Bounded by WEBHOOK_TIMEOUT_MS, as an attempt is.
   */
  private connect(options: buildConnector.Options, callback: buildConnector.Callback): void {
    const secure = options.protocol === 'https:';
    const host = options.hostname;
    const port = Number(options.port) || (secure ? 443 : 80);
    const receiver = `${host}:${port}`;
    let socket: Socket;
    try {
      socket = (secure ? this.httpsAgent : this.httpAgent).createConnection({
        host,
        port,
        ...(secure && {
          ...(!isIP(host) && { servername: options.servername || host }),
          session: this.tlsSessions.get(receiver),
        }),
      } as TcpNetConnectOpts) as Socket;
    } catch (error) {
      return callback(error as Error, null);
    }
    if (secure) socket.on('session', (session: Buffer) => this.keepTlsSession(receiver, session));
    socket.setNoDelay(true);
    // As undici's own connections: TCP keepalive probes find a receiver that vanished from an idle connection.
    socket.setKeepAlive(true, 60_000);
    socket.on('error', (error: ConnectionError) => {
      error[AFTER_ANSWERS] = socket.bytesRead > 0;
    });
    const connectEvent = secure ? 'secureConnect' : 'connect';
    const timer = setTimeout(
      () => socket.destroy(new Error(`timed out after ${this.config.webhookTimeoutMs} ms`)),
      this.config.webhookTimeoutMs,
    );
    this.connecting.add(socket);
    const refused = (error: Error) => {
      clearTimeout(timer);
      this.connecting.delete(socket);
      socket.off(connectEvent, connected);
      callback(error, null);
    };
    const connected = () => {
      clearTimeout(timer);
      this.connecting.delete(socket);
      socket.off('error', refused);
      callback(null, socket);
    };
    socket.once(connectEvent, connected);
    socket.once('error', refused);
  }

  /** Kept for the receivers last connected to, at most MAX_TLS_SESSIONS of them. */
  private keepTlsSession(receiver: string, session: Buffer): void {
    this.tlsSessions.delete(receiver);
    this.tlsSessions.set(receiver, session);
    if (this.tlsSessions.size > MAX_TLS_SESSIONS) {
      const oldest = this.tlsSessions.keys().next().value as string;
      this.tlsSessions.delete(oldest);
    }
  }

  private targetOf(text: string): { origin: string; path: string } {
    if (this.lastTarget?.text !== text) {
      const url = new URL(text);
      this.lastTarget = { text, origin: url.origin, path: `${url.pathname}${url.search}` };
    }
    return this.lastTarget;
  }

  /** The attempt decided by its answer (its duration is set when it is over). */
  private outcome(response: Answer, responseBody: string | null): SendResult {
    const { statusCode } = response;
    const ok = succeeded(statusCode);
    const redirect = statusCode >= 300 && statusCode < 400;
    const retryAfter = response.headers['retry-after'];
    return {
      ok,
      durationMs: 0,
      statusCode,
      responseBody,
      error: ok
        ? null
        : redirect
          ? `redirect to ${String(response.headers.location ?? '(no location)')} not followed`
          : `HTTP ${statusCode}`,
      ...(retryAfter !== undefined && {
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, new Date()),
      }),
    };
  }
}
