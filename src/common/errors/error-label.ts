/** Every label the API can answer. Labels are API: adding one forces a mapping in `describeLabel`. */
export const ERROR_LABELS = [
  'malformed_request',
  'payload_too_large',
  'invalid_api_key',
  'invalid_credentials',
  'invalid_token',
  'token_expired',
  'invalid_session',
  'forbidden',
  'not_found',
  'invalid_parameter',
  'invalid_gym',
  'invalid_plan',
  'not_exists',
  'already_used',
  'already_used_other_gym',
  'gym_with_more_than_one_plan',
  'inactive_employee',
  'gym_inactive',
  'plan_not_allowed',
  'usage_limit_reached',
  'check_in_not_available',
  'check_in_expired_alert',
  'rate_limited',
  'internal_error',
  'service_unavailable',
] as const;

export type ErrorLabel = (typeof ERROR_LABELS)[number];

export interface LabelDescription {
  status: number;
  title: string;
}

const BAD_REQUEST = { status: 400, title: 'Bad Request' };
const UNAUTHORIZED = { status: 401, title: 'Unauthorized' };
const VALIDATION = { status: 422, title: 'Validation Error' };

/** HTTP status and title of each label; the exhaustive switch fails to compile when a label is unmapped. */
export function describeLabel(label: ErrorLabel): LabelDescription {
  switch (label) {
    case 'malformed_request':
      return BAD_REQUEST;
    case 'payload_too_large':
      return { status: 413, title: 'Payload Too Large' };
    case 'invalid_api_key':
    case 'invalid_credentials':
    case 'invalid_token':
    case 'token_expired':
    case 'invalid_session':
      return UNAUTHORIZED;
    case 'forbidden':
      return { status: 403, title: 'Forbidden' };
    case 'not_found':
      return { status: 404, title: 'Not Found' };
    case 'invalid_parameter':
    case 'invalid_gym':
    case 'invalid_plan':
    case 'not_exists':
    case 'already_used':
    case 'already_used_other_gym':
    case 'gym_with_more_than_one_plan':
    case 'inactive_employee':
    case 'gym_inactive':
    case 'plan_not_allowed':
    case 'usage_limit_reached':
    case 'check_in_not_available':
    case 'check_in_expired_alert':
      return VALIDATION;
    case 'rate_limited':
      return { status: 429, title: 'Too Many Requests' };
    case 'internal_error':
      return { status: 500, title: 'Internal Server Error' };
    case 'service_unavailable':
      return { status: 503, title: 'Service Unavailable' };
    default:
      return assertNever(label);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unmapped error label: ${String(value)}`);
}

export function titleForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'Bad Request';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'Not Found';
    case 408:
      return 'Request Timeout';
    case 413:
      return 'Payload Too Large';
    case 414:
      return 'URI Too Long';
    case 422:
      return 'Validation Error';
    case 429:
      return 'Too Many Requests';
    case 431:
      return 'Request Header Fields Too Large';
    case 503:
      return 'Service Unavailable';
    default:
      return status >= 500 ? 'Internal Server Error' : 'Error';
  }
}
