import { ErrorLabel } from './error-label';

/**
 * The Wellhub-compatible routes' own error shapes (CONTRACT.md, "Wellhub-compatible access control"): their
 * clients read `errors[].key` (by exact value or suffix), and map 401 to "credentials" and 403 to "gym and
 * credential do not match". `label` is this service's label, on each error as everywhere.
 */
export interface AccessErrorBody {
  metadata: { total: 0; errors: 1 };
  errors: { message: string; key: string; label: ErrorLabel }[];
}

/** 403: that platform's shape for a key that does not cover the gym. */
export interface AccessForbiddenBody {
  Message: string;
}

/** The key of a refusal that names none: by its label, for what the guard, the limits and the HTTP layer refuse. */
export function defaultAccessKey(label: ErrorLabel): string {
  switch (label) {
    case 'invalid_api_key':
    case 'invalid_credentials':
    case 'invalid_token':
    case 'token_expired':
    case 'invalid_session':
      return 'auth.unauthorized';
    case 'forbidden':
      return 'auth.forbidden';
    case 'rate_limited':
      return 'request.rate_limited';
    case 'malformed_request':
      return 'request.malformed';
    case 'payload_too_large':
      return 'request.too_large';
    case 'invalid_parameter':
      return 'request.invalid';
    case 'not_found':
      return 'request.not_found';
    case 'internal_error':
      return 'request.internal_error';
    case 'service_unavailable':
      return 'request.unavailable';
    default:
      // A check-in rule's label.
      return 'checkin.validation.denied';
  }
}

/** The status and body of a refusal on a Wellhub-compatible route; a rule's 422 is that platform's 400. */
export function buildAccessErrorBody(
  status: number,
  label: ErrorLabel,
  message: string,
  key = defaultAccessKey(label),
): { status: number; body: AccessErrorBody | AccessForbiddenBody } {
  if (status === 403) return { status, body: { Message: message } };
  return {
    status: status === 422 ? 400 : status,
    body: { metadata: { total: 0, errors: 1 }, errors: [{ message, key, label }] },
  };
}
