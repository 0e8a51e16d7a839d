import { Inject, Injectable } from '@nestjs/common';
import { ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { parseRetryAfter } from './webhook-policy';

const RESPONSE_SNIPPET_BYTES = 4096;

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  retryAfterMs?: number;
}

export interface SignedMessage {
  url: string;
  secret: string;
  eventId: string;
  payload: string;
  at: Date;
}

/**
 * One signed POST (Standard Webhooks). Private, loopback, link-local and metadata addresses are refused when
 * the connection is made (so DNS names that resolve to them are refused too) unless allowed by config.
 * Redirects are never followed: a 3xx is a failure.
 */
@Injectable()
export class WebhookSender {
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const filter = {
      allowPrivateIPAddress: config.webhookAllowPrivateNetworks,
      allowMetaIPAddress: config.webhookAllowPrivateNetworks,
      keepAlive: true,
    };
    this.httpAgent = new RequestFilteringHttpAgent(filter);
    this.httpsAgent = new RequestFilteringHttpsAgent(filter);
  }

  sign(message: SignedMessage): Record<string, string> {
    const signature = new Webhook(message.secret).sign(message.eventId, message.at, message.payload);
    return {
      'content-type': 'application/json',
      'user-agent': 'gym-integration-webhooks/1.0',
      'webhook-id': message.eventId,
      'webhook-timestamp': String(Math.floor(message.at.getTime() / 1000)),
      'webhook-signature': signature,
    };
  }

  send(message: SignedMessage): Promise<SendResult> {
    const started = Date.now();
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        resolve({ ...result, durationMs: Date.now() - started });
      };
      const failed = (error: Error) =>
        finish({ ok: false, statusCode: null, responseBody: null, error: error.message });
      try {
        const request = this.post(message, (response) => this.readAnswer(response, finish));
        request.on('timeout', () =>
          request.destroy(new Error(`timed out after ${this.config.webhookTimeoutMs} ms`)),
        );
        request.on('error', failed);
      } catch (error) {
        // The filtering agent refuses an IP literal at once, before any connection.
        failed(error as Error);
      }
    });
  }

  private post(message: SignedMessage, onResponse: (response: IncomingMessage) => void): ClientRequest {
    const url = new URL(message.url);
    const secure = url.protocol === 'https:';
    const body = Buffer.from(message.payload);
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: { ...this.sign(message), 'content-length': String(body.length) },
        timeout: this.config.webhookTimeoutMs,
      },
      onResponse,
    );
    request.end(body);
    return request;
  }

  private readAnswer(
    response: IncomingMessage,
    finish: (result: Omit<SendResult, 'durationMs'>) => void,
  ): void {
    const statusCode = response.statusCode ?? 0;
    const ok = statusCode >= 200 && statusCode < 300;
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      if (size < RESPONSE_SNIPPET_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    const done = () => {
      const snippet = Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8');
      const retryAfter = response.headers['retry-after'];
      const redirect = statusCode >= 300 && statusCode < 400;
      finish({
        ok,
        statusCode,
        responseBody: snippet || null,
        error: ok
          ? null
          : redirect
            ? `redirect to ${String(response.headers.location ?? '(no location)')} not followed`
            : `HTTP ${statusCode}`,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, new Date()),
      });
    };
    response.on('end', done);
    response.on('aborted', done);
    response.on('error', (error) =>
      finish({ ok: false, statusCode, responseBody: null, error: error.message }),
    );
  }
}
