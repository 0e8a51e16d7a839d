import { describeLabel, ErrorLabel } from './error-label';

export interface DomainErrorOptions {
  /** Overrides the label's usual status where the contract says so (e.g. 400 `invalid_plan` on GET /partner/plans). */
  status?: number;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: Record<string, string>;
}

/** A business or request error with a stable label; the global filter turns it into the error envelope. */
export class DomainError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly label: ErrorLabel,
    readonly detail: string,
    options: DomainErrorOptions = {},
  ) {
    super(detail);
    this.name = 'DomainError';
    this.status = options.status ?? describeLabel(label).status;
    this.headers = options.headers ?? {};
  }
}

export const invalidParameter = (detail: string) => new DomainError('invalid_parameter', detail);
export const notFound = (detail: string) => new DomainError('not_found', detail);
