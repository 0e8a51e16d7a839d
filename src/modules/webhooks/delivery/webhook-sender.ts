import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { PublicHttpAgent, PublicHttpsAgent } from '../webhook-addresses';
import { parseRetryAfter } from '../webhook-policy';
import { SignedMessage, signedHeaders } from './signed-headers';

export type { SignedMessage } from './signed-headers';

const RESPONSE_SNIPPET_BYTES = 4096;
/** How long the body of a 2xx answer is read for the delivery log; the attempt has succeeded already. */
const SUCCESS_BODY_GRACE_MS = 500;

const succeeded = (response: IncomingMessage) =>
  (response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300;

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

/**
 * A kept-alive connection that the receiver closed while it sat idle fails the next request written on it
 * (a reset, or a hang-up, before any answer): the receiver closed it without reading that request. The request
 * goes again on another connection, within the same attempt and deadline (a receiver that did read it gets the
 * same `webhook-id` twice, as with any retry); a few times at most, since the agent may hold several such
 * connections to the same receiver.
 */
const STALE_CONNECTION_RETRIES = 3;
const STALE_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE']);

function isStaleConnection(request: ClientRequest, error: Error): boolean {
  if (!request.reusedSocket) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (code !== undefined && STALE_CONNECTION_ERRORS.has(code)) || error.message === 'socket hang up';
}

/**
 * One signed POST (Standard Webhooks). Private, loopback, link-local and metadata addresses are refused when
 * the connection is made (so DNS names that resolve to them are refused too) unless allowed by config.
 * Redirects are never followed: a 3xx is a failure. When the process begins to stop, attempts in flight are
 * aborted at once (and none starts): each ends as a failed attempt whose delivery is due again by the retry
 * schedule, instead of holding the shutdown for up to WEBHOOK_TIMEOUT_MS.
 */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly inFlight = new Set<(error: Error) => void>();
  private stopping = false;
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;
  /** The last URL parsed: a run sends its whole batch to one URL. */
  private lastTarget?: { text: string; url: URL; secure: boolean };

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.httpAgent = new PublicHttpAgent(!config.webhookAllowPrivateNetworks);
    this.httpsAgent = new PublicHttpsAgent(!config.webhookAllowPrivateNetworks);
  }

  onModuleDestroy(): void {
    this.stopping = true;
    for (const abort of this.inFlight) abort(new Error(SHUTTING_DOWN));
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
      let request: ClientRequest | undefined;
      let response: IncomingMessage | undefined;
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
        this.inFlight.delete(failed);
        // A receiver still sending must not keep the socket, nor hand it to the next attempt.
        if (!response?.complete) {
          response?.destroy();
          request?.destroy();
        }
        result.durationMs = Date.now() - started;
        resolve(result);
      };
      const failed = (error: Error) =>
        finish({
          ok: false,
          durationMs: 0,
          statusCode: response?.statusCode ?? null,
          responseBody: snippet(),
          error: publicError(error),
          ...(error.message === SHUTTING_DOWN && { abandoned: true }),
        });
      const answered = (answer: IncomingMessage) => finish(this.outcome(answer, snippet()));
      const deadline = setTimeout(
        () =>
          response && succeeded(response)
            ? answered(response)
            : failed(new Error(`timed out after ${this.config.webhookTimeoutMs} ms`)),
        this.config.webhookTimeoutMs,
      );
      if (this.stopping) return failed(new Error(SHUTTING_DOWN));
      this.inFlight.add(failed);
      const onResponse = (answer: IncomingMessage) => {
        response = answer;
        // A success is decided: the body may add a snippet for the log, but not hold the worker.
        if (succeeded(answer)) grace = setTimeout(() => answered(answer), SUCCESS_BODY_GRACE_MS);
        answer.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_SNIPPET_BYTES) answered(answer);
        });
        answer.on('end', () => answered(answer));
        // Cut off mid-answer: the status code still decides.
        answer.on('error', () => answered(answer));
        answer.on('close', () => answered(answer));
      };
      const write = (retriesLeft: number) => {
        try {
          const sent = this.post(message, onResponse);
          request = sent;
          sent.on('error', (error: Error) => {
            if (settled || sent !== request) return;
            if (!response && retriesLeft > 0 && !this.stopping && isStaleConnection(sent, error))
              write(retriesLeft - 1);
            else failed(error);
          });
        } catch (error) {
          // The filtering agent refuses an IP literal at once, before any connection.
          failed(error as Error);
        }
      };
      write(STALE_CONNECTION_RETRIES);
    });
  }

  private post(message: SignedMessage, onResponse: (response: IncomingMessage) => void): ClientRequest {
    const target = this.targetOf(message.url);
    const headers = signedHeaders(message);
    headers['content-length'] = String(Buffer.byteLength(message.payload));
    const request = (target.secure ? httpsRequest : httpRequest)(
      target.url,
      { method: 'POST', agent: target.secure ? this.httpsAgent : this.httpAgent, headers },
      onResponse,
    );
    request.end(message.payload);
    return request;
  }

  private targetOf(text: string): { url: URL; secure: boolean } {
    if (this.lastTarget?.text !== text) {
      const url = new URL(text);
      this.lastTarget = { text, url, secure: url.protocol === 'https:' };
    }
    return this.lastTarget;
  }

  /** The attempt decided by its answer (its duration is set when it is over). */
  private outcome(response: IncomingMessage, responseBody: string | null): SendResult {
    const statusCode = response.statusCode ?? 0;
    const ok = statusCode >= 200 && statusCode < 300;
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
