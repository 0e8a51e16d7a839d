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
}

export interface Keys {
  place_api_key: string;
  partner_api_key: string | null;
}

export interface Webhook {
  id: string;
  webhook_url: string;
  webhook_type: string;
  active: boolean;
  created_at: string;
  secret?: string;
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
}

export interface BulkImportResult {
  created: number;
  updated: number;
  errors: { index: number; label: string; message: string }[];
}
