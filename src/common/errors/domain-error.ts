import { labelMessage, Message, message, MessageKey, MessageParams, translate } from '../i18n/messages';
import { describeLabel, ErrorLabel } from './error-label';

export interface DomainErrorOptions {
  /** Overrides the label's usual status where the contract says so (e.g. 400 `invalid_plan` on GET /partner/plans). */
  status?: number;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** On the Wellhub-compatible routes: the error's `key` (e.g. `checkin.validation.notfound`). */
  accessKey?: string;
}

/**
 * A business or request error with a stable label; the global filter turns it into the error envelope, with
 * `detail` in the reader's language. `message` is the English sentence, for logs.
 */
export class DomainError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly detail: Message;
  readonly accessKey?: string;

  constructor(
    readonly label: ErrorLabel,
    detail: Message | MessageKey = labelMessage(label),
    options: DomainErrorOptions = {},
  ) {
    const sentence = typeof detail === 'string' ? message(detail) : detail;
    super(translate('en', sentence));
    this.name = 'DomainError';
    this.detail = sentence;
    this.status = options.status ?? describeLabel(label).status;
    this.headers = options.headers ?? {};
    this.accessKey = options.accessKey;
  }
}

export const invalidParameter = (key: MessageKey, params?: MessageParams) =>
  new DomainError('invalid_parameter', message(key, params));
export const notFound = (key: MessageKey, params?: MessageParams) =>
  new DomainError('not_found', message(key, params));
