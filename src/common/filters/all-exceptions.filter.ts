import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../errors/domain-error';
import { buildAccessErrorBody } from '../errors/access-error-body';
import { buildErrorEnvelope, buildObjectSourceErrorEnvelope, withRequestId } from '../errors/error-envelope';
import { ErrorLabel } from '../errors/error-label';
import { routeConfigOf } from '../http/route-config';
import { noteErrorLabel } from '../metrics/http-metrics';
import { isDatabaseUnreachable, isTransactionConflict } from '../../database/mysql-errors';
import { labelMessage, Message, message, translate } from '../i18n/messages';

interface ErrorAnswer {
  status: number;
  label: ErrorLabel;
  detail: Message;
  headers?: Record<string, string>;
  accessKey?: string;
}

/** Seconds a client is asked to wait when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database cannot be reached: 503 with `Retry-After`, and no stack trace in the log (the request's own
 * line says 503; a stack per request would only flood the log during an outage).
 */
function databaseUnavailable(): ErrorAnswer {
  return {
    status: 503,
    label: 'service_unavailable',
    detail: message('request.databaseUnavailable'),
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  };
}

/**
 * A transaction that lost every one of its runs to concurrent writes of the same rows (see retryTransaction):
 * nothing of it was stored, and a repeat a moment later gets the rules' answer.
 */
function databaseBusy(): ErrorAnswer {
  return {
    status: 503,
    label: 'service_unavailable',
    detail: message('request.databaseBusy'),
    headers: { 'retry-after': '1' },
  };
}

/**
 * Turns every exception into the contract's error envelope, its `detail` in the request's language;
 * every error carries the request id in its `meta`; unexpected ones become 500 naming it in `detail` too, a
 * database that cannot be reached, or a transaction that kept losing conflicts, 503 with `Retry-After`.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const answer = this.answerFor(exception, request);
    if (reply.sent) return;
    noteErrorLabel(request, answer.label);
    const locale = request.locale;
    const headers = { ...answer.headers, 'content-language': locale, vary: 'Accept-Language' };
    if (routeConfigOf(request).errorShape === 'access') {
      const access = buildAccessErrorBody(
        answer.status,
        answer.label,
        translate(locale, answer.detail),
        answer.accessKey,
      );
      reply.code(access.status).headers(headers).send(access.body);
      return;
    }
    const build =
      routeConfigOf(request).errorSource === 'object' ? buildObjectSourceErrorEnvelope : buildErrorEnvelope;
    reply
      .code(answer.status)
      .headers(headers)
      .send(withRequestId(build(answer.status, answer.label, translate(locale, answer.detail)), request.id));
  }

  private answerFor(exception: unknown, request: FastifyRequest): ErrorAnswer {
    if (exception instanceof DomainError) {
      return {
        status: exception.status,
        label: exception.label,
        detail: exception.detail,
        headers: exception.headers,
        accessKey: exception.accessKey,
      };
    }
    if (exception instanceof ThrottlerException) {
      return { status: 429, label: 'rate_limited', detail: labelMessage('rate_limited') };
    }
    if (exception instanceof HttpException) {
      const mapped = this.mapHttpException(exception, request);
      if (mapped) return mapped;
    }
    if (isDatabaseUnreachable(exception)) return databaseUnavailable();
    if (isTransactionConflict(exception)) return databaseBusy();
    const requestId = request.id;
    this.logger.error({ requestId, err: exception }, 'Unhandled exception');
    return {
      status: 500,
      label: 'internal_error',
      detail: message('request.internalError', { requestId }),
    };
  }

  private mapHttpException(exception: HttpException, request: FastifyRequest): ErrorAnswer | undefined {
    const status = exception.getStatus();
    switch (status) {
      case 400:
        return { status, label: 'malformed_request', detail: labelMessage('malformed_request') };
      case 401:
        return { status, label: 'invalid_token', detail: message('request.authenticationRequired') };
      case 404:
        return {
          status,
          label: 'not_found',
          detail: message('request.routeNotFound', {
            method: request.method,
            path: request.url.split('?')[0],
          }),
        };
      case 413:
        return { status, label: 'payload_too_large', detail: labelMessage('payload_too_large') };
      case 429:
        return { status, label: 'rate_limited', detail: labelMessage('rate_limited') };
      case 503:
        return databaseUnavailable();
      default:
        // Whatever else the HTTP layer refuses (a bad Content-Length, say) is a request it cannot read.
        if (status >= 400 && status < 500) {
          return { status: 400, label: 'malformed_request', detail: labelMessage('malformed_request') };
        }
        return undefined;
    }
  }
}
