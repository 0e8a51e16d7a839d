import type { ErrorLabel } from '../../errors/error-label';

/**
 * English, the catalogue the others are checked against: every key here must be in pt-BR and es, with the
 * same placeholders. Keys name the situation; `label.*` is each label's own sentence.
 */
export const en = {
  'label.malformed_request': 'The request could not be read.',
  'label.payload_too_large': 'The request body is over the size limit.',
  'label.invalid_api_key': 'The x-api-key header is missing, unknown or revoked.',
  'label.invalid_credentials': 'The place_api_key and partner_api_key do not identify a gym of this partner.',
  'label.invalid_token': 'The access token is malformed, tampered with or no longer valid.',
  'label.token_expired': 'The access token has expired; request a new one at POST /partner/auth.',
  'label.not_found': 'Not found.',
  'label.invalid_parameter': 'The request is not valid.',
  'label.invalid_gym': 'service_provider_code is not the gym of this API key.',
  'label.invalid_plan': 'The plan code is not an active plan of this gym.',
  'label.not_exists': 'No beneficiary with an active benefit plan has this identifier.',
  'label.already_used': 'A check-in at this gym was recorded recently.',
  'label.already_used_other_gym': 'A check-in at another gym was recorded recently.',
  'label.gym_with_more_than_one_plan': 'This gym has more than one plan; send service_provider_plan_code.',
  'label.inactive_employee': 'The beneficiary is inactive.',
  'label.gym_inactive': 'This gym is inactive or delisted.',
  'label.plan_not_allowed': "The beneficiary's benefit plan does not give access to this gym's plan.",
  'label.usage_limit_reached': "The benefit plan's monthly visit limit is reached.",
  'label.rate_limited': 'Too many requests; retry after the time in Retry-After.',
  'label.internal_error': 'An unexpected error occurred.',
  'label.service_unavailable': 'The service cannot answer right now; retry after the time in Retry-After.',
  'label.check_in_not_available':
    'This check-in is no longer pending: it was confirmed, cancelled or replaced.',
  'label.check_in_expired_alert': 'This check-in has expired; the member must check in again in the app.',

  'request.bodyNotJson': 'The request body is not valid JSON.',
  'request.bodyNotObject': 'The request body must be a JSON object.',
  'request.bodyTooDeep': 'The request body nests arrays or objects too deeply.',
  'request.bodyTooManyFields': 'An object in the request body has more than {{max}} fields.',
  'request.bodyTooManyValues':
    'The request body holds more than {{max}} values (array elements and object fields, counted at every level).',
  'request.queryTooManyFields': 'The query string has more than {{max}} parameters.',
  'request.timeout': 'The request did not arrive whole in time; the connection is closed.',
  'request.headersTooLarge': 'The request headers are over the size limit.',
  'request.badUrl': 'The URL is not valid: it holds a malformed %-encoding.',
  'request.pathTooLong': 'A segment of the URL path is over the length limit.',
  'request.unreadable': 'The request could not be read.',
  'request.shuttingDown': 'The service is restarting; retry in a moment.',
  'request.addressShareUsed':
    'Too many requests from your address are in progress at once; retry in a moment.',
  'request.routeNotFound': 'No route {{method}} {{path}}.',
  'request.authenticationRequired': 'Authentication is required.',
  'request.databaseUnavailable': 'The service cannot reach its database right now; try again shortly.',
  'request.databaseBusy':
    'Other requests were changing the same records at the same moment; try again shortly.',
  'request.internalError': 'An unexpected error occurred. Quote request id {{requestId}} to support.',

  'auth.bearerMissing': 'Send the access token as Authorization: Bearer <ACCESS_TOKEN>.',
  'auth.adminTokenMissing':
    'Send the admin token as Authorization: Bearer <ADMIN_API_TOKEN>, or sign in to the console.',
  'auth.adminTokenInvalid': 'The admin token is not valid.',
  'auth.memberTokenMissing': 'Send the member API token as Authorization: Bearer <MEMBER_API_TOKEN>.',
  'auth.memberTokenInvalid': 'The member API token is not valid.',

  'field.required': '{{field}} is required',
  'field.requiredString': '{{field}} is required and must be a string',
  'field.mustBeString': '{{field}} must be a string',
  'field.mustBeBoolean': '{{field}} must be a boolean',
  'field.tooLong': '{{field}} must be at most {{max}} characters',
  'field.invalid': '{{field}} is not valid',
  'field.oneOf': '{{field}} must be one of: {{values}}',
  'field.cpf': '{{field}} must be a CPF of 11 digits',
  'field.cpfCheckDigits': '{{field}} must be 11 digits with valid check digits',
  'field.beneficiaryCode': '{{field}} must be a beneficiary code',
  'field.calendarDate': '{{field}} must be a real date as YYYY-MM-DD',
  'field.dateOrInstant': '{{field}} must be a date (YYYY-MM-DD) or an ISO 8601 date and time',
  'field.taken': '{{field}} {{value}} is already taken',
  'field.codeTakenByBeneficiary': 'code {{value}} is already taken by another beneficiary',
  'field.codeTakenByPlace': 'code {{value}} is already taken by another place',
  'field.codeTakenByPlan': 'code {{value}} is already taken by another plan',
  'field.checkInToken': '{{field}} must be a check-in token of 6 digits',

  'validation.isString': '{{field}} must be a string',
  'validation.isBoolean': '{{field}} must be a boolean',
  'validation.isInt': '{{field}} must be an integer',
  'validation.isArray': '{{field}} must be an array',
  'validation.isNotEmpty': '{{field}} must not be empty',
  'validation.isEmail': '{{field}} must be an email address',
  'validation.min': '{{field}} must not be less than {{min}}',
  'validation.max': '{{field}} must not be greater than {{max}}',
  'validation.maxLength': '{{field}} must be at most {{max}} characters',
  'validation.arrayMaxSize': '{{field}} must hold at most {{max}} items',
  'validation.matches': '{{field}} has an invalid format',
  'validation.isCalendarDate': '{{field}} must be a real date as YYYY-MM-DD',
  'validation.notBlank': '{{field}} must not be blank',
  'validation.eightCharacterCode': '{{field}} must be 8 characters A-Z and 0-9',
  'validation.benefitPlanCode': '{{field}} must be 1 to 32 characters A-Z, 0-9, _ or -',
  'validation.positiveInteger': '{{field}} must be a positive integer',
  'validation.deliveryStatus': '{{field}} must be one of: pending, queued, delivered, failed',
  'validation.checkInStatus': '{{field}} must be one of: pending, validated, expired, cancelled',
  'validation.monthlyVisitLimit': '{{field}} must be an integer from 1 to 4294967295, or null for unlimited',
  'validation.bulkTooManyRows': '{{field}} must hold at most {{max}} rows; split the import',
  'validation.invalid': '{{field}} is not valid',

  'trackUsage.dataShape': 'data must be an object with type and attributes',
  'trackUsage.dataType': 'data.type must be track_usage',
  'trackUsage.attributesShape': 'data.attributes must be an object',
  'trackUsage.idempotencyKeyLength': 'Idempotency-Key must be 1 to {{max}} characters',
  'trackUsage.idempotencyKeyReused': 'Idempotency-Key {{key}} was already used for a different request',

  'checkIn.invalidGym': 'service_provider_code {{given}} is not the gym of this API key ({{expected}}).',
  'checkIn.invalidPlan': '{{plan}} is not an active plan of this gym.',
  'checkIn.moreThanOnePlan':
    'This gym has {{plans}} plans; send service_provider_plan_code with one of: {{codes}}.',
  'checkIn.notExistsCpf': 'No beneficiary with an active benefit plan has this CPF.',
  'checkIn.notExistsCode': 'No beneficiary with an active benefit plan has this code.',
  'checkIn.notExistsToken': 'No check-in at this gym has token {{token}}.',
  'checkIn.planNotAllowed':
    "The beneficiary's benefit plan (tier {{granted}}) does not give access to plan {{plan}} (tier {{tier}}).",
  'checkIn.alreadyUsed': 'A check-in at this gym was recorded at {{at}}; try again after {{retry}}.',
  'checkIn.alreadyUsedOtherGym':
    'A check-in at another gym was recorded at {{at}}; try again after {{retry}}.',
  'checkIn.usageLimitReached':
    'The monthly limit of {{limit}} visits of the benefit plan is reached ({{visits}} this month).',

  'memberCheckIn.notFound': 'No check-in {{id}}.',
  'memberCheckIn.confirmationNotFound': 'No check-in has this confirmation address.',
  'memberCheckIn.gymNotFound': 'No gym has service_provider_code {{code}}.',
  'memberCheckIn.beneficiaryGone': 'The beneficiary of this check-in no longer has an active benefit plan.',
  'memberCheckIn.validated': 'This check-in was already confirmed at {{at}}.',
  'memberCheckIn.cancelled': 'This check-in was cancelled at {{at}}.',
  'memberCheckIn.replaced': 'This check-in was replaced at {{at}} by a newer check-in of the member.',
  'memberCheckIn.expired': 'This check-in expired at {{at}}; the member must check in again in the app.',
  'memberCheckIn.expiredNotCancellable': 'This check-in expired at {{at}}; there is nothing left to cancel.',
  'webhooks.testEventsLimited': 'Too many test events for this place; try again in {{seconds}} seconds.',
  'memberCheckIn.tokenLookupsLimited':
    'Too many check-in tokens that match nothing were sent with this key; try again in {{seconds}} seconds.',

  'plans.idNotCode': 'id must be a plan code',
  'plans.idEmpty': 'id is empty; send a plan code.',
  'plans.placeGone': 'The gym of this token no longer exists.',

  'controlPanel.partnerNotFound': 'No partner {{id}}.',
  'controlPanel.placeNotFound': 'No place {{id}}.',
  'controlPanel.planNotFound': 'No plan {{code}} at this place.',
  'controlPanel.benefitPlanNotFound': 'No benefit plan {{code}}.',
  'controlPanel.benefitPlanExists':
    'benefit plan {{value}} already exists; change it with PATCH /admin/benefit-plans/{{value}}',
  'controlPanel.cpfTaken':
    'cpf already belongs to a beneficiary; change it with PATCH /admin/beneficiaries/:cpf',
  'controlPanel.benefitPlanMissing': 'benefit_plan_code {{code}} does not exist',
  'controlPanel.beneficiaryNotFound': 'No beneficiary with this CPF or code.',
  'bulk.rowNotObject': 'the row must be an object',
  'bulk.cpfRepeated': 'cpf is repeated; the row at index {{index}} was used',
  'bulk.codeRepeated': 'code is repeated; the row at index {{index}} was used',

  'webhooks.exists':
    'A {{type}} webhook already exists for this gym; change it with PUT /partner/webhook/update',
  'webhooks.missing': 'No {{type}} webhook for this gym; create one with POST /partner/webhook/create',
  'webhooks.deliveryNotFound': 'No delivery {{id}}',
  'webhooks.deliveryBusy':
    'Delivery {{id}} is still pending or queued; redeliver it once it is delivered or failed',
  'webhooks.urlRequired': 'webhook_url is required and must be a string',
  'webhooks.urlNotAbsolute': 'webhook_url must be an absolute URL',
  'webhooks.urlHttpsOnly': 'webhook_url must use https',
  'webhooks.urlHttpOrHttps': 'webhook_url must use http or https',
  'webhooks.urlUserInfo': 'webhook_url must not carry a user name or password',
  'webhooks.urlPrivateAddress':
    'webhook_url must name a public address: private, loopback, link-local, reserved and IPv4-embedding IPv6 addresses are refused',
  'webhooks.urlTooLong':
    'webhook_url must be at most {{max}} characters once normalized (percent-encoded, punycode)',
  'console.notBuilt': 'The console is not built: run npm run build.',

  'label.invalid_session': 'Sign in: there is no session, or it has ended.',
  'label.forbidden': 'Your role may not do this.',
  'auth.roleForbidden': 'The {{role}} role may not do this.',
  'session.invalidCredentials': 'The e-mail and password do not match an active account.',
  'session.ended': 'Your session has ended or does not exist; sign in again.',
  'session.csrfMissing':
    "A change made with a session must carry its X-CSRF-Token (or come from the console's own origin).",
  'session.tooManyFailures': 'Too many failed sign-ins; try again in {{seconds}} seconds.',
  'passwordLink.notFound': 'This link is unknown, used or expired; ask an operator for a new one.',
  'accounts.emailTaken': 'email {{value}} already belongs to an account',
  'validation.passwordLength': '{{field}} must be 12 to 256 characters',
  'validation.pageSize': '{{field}} must be an integer from 1 to 200',

  'accounts.notFound': 'No account {{id}}.',
  'accounts.scopeOnlyForGym': 'only a gym account has partner_id or place_ids',
  'accounts.scopeBoth': 'a gym account has partner_id or place_ids, not both',
  'accounts.scopeRequired': 'a gym account needs partner_id (a whole chain) or place_ids (listed places)',
  'accounts.partnerMissing': 'partner_id {{id}} does not exist',
  'accounts.placeMissing': 'place_ids: place {{id}} does not exist',
  'accounts.selfChange': 'you cannot disable your own account or change its role',
  'accounts.disabled': 'account {{id}} is disabled; enable it before sending it a password link',
  'validation.role': '{{field}} must be one of: operator, support, gym',

  'auth.dashboardCredentials':
    'The queue dashboard needs a console session (operator or support) or basic auth: user admin, password ADMIN_API_TOKEN.',

  // Wellhub-compatible access control
  'field.memberNumber': '{{field}} must be a member number: 13 digits, the first not 0',
  'checkIn.notExistsMemberNumber': 'No beneficiary with an active benefit plan has this member number.',
  'access.unauthorized':
    "Send the partner's or the gym's API key as Authorization: Bearer <key> (or X-Api-Key).",
  'access.gymRequired': "Send the gym's gym_id in the X-Gym-Id header.",
  'access.gymNotCovered': 'This key does not cover gym {{gym}}.',
  'access.gymMismatch': 'X-Gym-Id {{header}} is not the gym of the path ({{gym}}).',
  'access.checkInNotFound': 'Member {{member}} has no check-in at this gym to validate today.',
  'access.memberNotFound': 'No member has the number {{member}}.',
  'access.customCode': 'custom_code must be 1 to 13 characters.',
  'access.lookupsLimited':
    'Too many validations that found no check-in were sent with this key; try again in {{seconds}} seconds.',
  'access.webhooksShape': 'webhooks must be an array of objects {event, url, secret}.',
  'access.invalidEvent': 'Unknown webhook event {{event}}; this service sends: checkin.',
  'access.webhookSecret': 'secret must be a string of 1 to 100 characters.',
  'access.sandboxOff': 'The sandbox is off on this service (ACCESS_SANDBOX).',
  'access.productNotFound': 'product_id {{product}} is not an active plan of this gym.',
} as const satisfies Record<`label.${ErrorLabel}`, string> & Record<string, string>;
