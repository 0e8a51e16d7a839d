import { ErrorLabel } from '../errors/error-label';

/** An example detail for each label, shown in the Swagger docs. */
export const LABEL_EXAMPLE_DETAILS: Record<ErrorLabel, string> = {
  malformed_request: 'The request body is not valid JSON.',
  payload_too_large: 'The request body is over the size limit.',
  invalid_api_key: 'The x-api-key header is missing, unknown or revoked.',
  invalid_credentials: 'The place_api_key and partner_api_key do not identify a gym of this partner.',
  invalid_token: 'The access token is malformed, tampered with or no longer valid.',
  token_expired: 'The access token has expired; request a new one at POST /partner/auth.',
  invalid_session: 'Sign in: there is no session, or it ended.',
  forbidden: 'Your role may not do this.',
  not_found: 'No route GET /v1/unknown.',
  invalid_parameter: 'identifier must be a string.',
  invalid_gym: 'service_provider_code 59TADO9F is not the gym of this API key.',
  invalid_plan: 'B0KR5QWH is not an active plan of this gym.',
  not_exists: 'No beneficiary with an active benefit plan has this CPF.',
  already_used: 'A check-in at this gym was recorded at 07:02; try again after 08:32.',
  already_used_other_gym: 'A check-in at another gym was recorded at 07:02; try again after 08:32.',
  gym_with_more_than_one_plan: 'This gym has more than one plan; send service_provider_plan_code.',
  inactive_employee: 'The beneficiary is inactive.',
  gym_inactive: 'This gym is inactive or delisted.',
  plan_not_allowed: "The beneficiary's benefit plan does not give access to this gym plan.",
  usage_limit_reached: 'The monthly limit of 8 visits of the benefit plan is reached.',
  check_in_not_available: 'This check-in was already confirmed at 2026-11-22 07:05.',
  check_in_expired_alert:
    'This check-in expired at 2026-11-22 08:32; the member must check in again in the app.',
  rate_limited: 'Too many requests; retry after the time in Retry-After.',
  internal_error: 'An unexpected error occurred. Quote request id 5f0c... to support.',
  service_unavailable: 'The service cannot reach its database right now; try again shortly.',
};
