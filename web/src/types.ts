/** The shapes the service answers with (snake_case, as on the wire). */

export type Role = 'operator' | 'support' | 'gym';

export interface Account {
  id: number | string;
  email: string;
  name: string;
  role: Role;
  partner_id: number | null;
  place_ids: string[];
  active: boolean;
  created_at: string;
  last_login_at: string | null;
}

export interface Session {
  account: Account;
  csrf_token: string;
}

export interface PasswordLink {
  url: string;
  expires_at: string;
}

export interface PasswordLinkInfo {
  email: string;
  name: string;
  purpose: 'invitation' | 'reset';
  expires_at: string;
}

export interface Page<T> {
  data: T[];
  page: number;
  page_size: number;
  total: number;
}

export interface Partner {
  id: number;
  name: string;
  places_count?: number;
  created_at?: string;
  partner_api_key?: string;
  places?: Place[];
}

export interface Plan {
  id: number;
  name: string;
  code: string;
  tier: number;
  externalReference: string | null;
  createdAt: string;
  deletedAt: string | null;
  placeId: string;
  /** Sent once the Wellhub-compatible routes land: the plan's integer id there. */
  product_id?: number;
}

export interface Place {
  id: string;
  partner_id: number;
  partner_name?: string;
  name: string;
  code: string;
  active: boolean;
  webhook_subscribed?: boolean;
  place_api_key?: string;
  plans?: Plan[];
  /** Sent once the Wellhub-compatible routes land: the gym's integer id there. */
  gym_id?: number;
}

export interface Keys {
  place_api_key: string;
  partner_api_key: string | null;
}

/** An endpoint's circuit breaker and failures, as the service reports them. */
export interface EndpointState {
  state: 'closed' | 'open' | 'half_open';
  consecutive_failures: number;
  open_until: string | null;
  last_error: string | null;
  last_failure_at: string | null;
  /** The console's routes only: its first failed attempt after its last success, while failing. */
  failing_since?: string | null;
}

export interface Webhook {
  id: string;
  webhook_url: string;
  webhook_type: string;
  active: boolean;
  created_at: string;
  secret?: string;
  delivery_state?: EndpointState;
}

export type DeliveryStatus = 'pending' | 'queued' | 'delivered' | 'failed';

export interface Attempt {
  number: number;
  url: string;
  status_code: number | null;
  duration_ms: number | null;
  response_body: string | null;
  error: string | null;
  created_at: string;
}

export interface Delivery {
  id: string;
  place_id: string;
  place_name: string;
  event_id: string;
  event_type: string;
  url: string;
  status: DeliveryStatus;
  attempts: number | Attempt[];
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  payload?: unknown;
  endpoint_state?: EndpointState;
  request_id?: string | null;
}

export interface BulkImportResult {
  created: number;
  updated: number;
  errors: { index: number; label: string; message: string }[];
}

/** One hour or day of check-in answers. */
export interface CheckInBucket {
  start: string;
  recorded: number;
  eligible: number;
  refused: number;
  refusals: Record<string, number>;
}

export interface EndpointHealth {
  webhook_id: string;
  place_id: string;
  place_name: string;
  place_code: string;
  url: string;
  active: boolean;
  delivery_state: EndpointState;
  deliveries: number;
  failed: number;
  retrying: number;
  failure_rate: number;
}

export interface OverviewPlace {
  id: string;
  name: string;
  code: string;
  active: boolean;
  visits_today: number;
  webhook: { id: string; url: string; active: boolean; delivery_state: EndpointState } | null;
}

export interface Overview {
  generated_at: string;
  check_ins: {
    hourly: CheckInBucket[];
    daily: CheckInBucket[];
    last_24_hours: CheckInBucket;
    visits_today: number;
  };
  deliveries: {
    created: number;
    delivered: number;
    failed: number;
    waiting: number;
    retrying: number;
    oldest_waiting_since: string | null;
    oldest_waiting_seconds: number | null;
  };
  endpoints: EndpointHealth[];
  member_check_ins: { pending: number; expired: number; validated: number; cancelled: number };
  places: OverviewPlace[] | null;
}

export interface BeneficiaryUsage {
  month: string;
  visits_this_month: number;
  monthly_visit_limit: number | null;
  remaining: number | null;
  benefit_plan_code: string | null;
  benefit_plan_name: string | null;
  benefit_plan_tier: number | null;
  benefit_plan_active: boolean | null;
  last_visit_at: string | null;
}
