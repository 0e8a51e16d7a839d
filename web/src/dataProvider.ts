import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { HttpError } from 'react-admin';
import { api, withQuery } from './http';
import type {
  Account,
  BeneficiaryUsage,
  BulkImportResult,
  Delivery,
  Keys,
  Overview,
  Page,
  PasswordLink,
  PasswordLinkInfo,
  Plan,
  Webhook,
} from './types';

/**
 * The only code that knows the service's /admin and password-link routes. Resources are the console's
 * screens; each maps to the documented route, its filters and how its records are identified.
 */

interface PagedList {
  path: string;
  filters: string[];
  /** Field that identifies a record when the route's items have no `id`. */
  idField?: string;
}

const PAGED_LISTS: Record<string, PagedList> = {
  partners: { path: '/admin/partners', filters: ['q'] },
  places: { path: '/admin/places', filters: ['q', 'partner_id'] },
  beneficiaries: { path: '/admin/beneficiaries', filters: ['q'], idField: 'code' },
  visits: { path: '/admin/visits', filters: ['place_id', 'from', 'to'] },
  deliveries: { path: '/admin/deliveries', filters: ['status', 'place_id', 'failing'] },
  accounts: { path: '/admin/accounts', filters: ['q', 'role'] },
  audit: { path: '/admin/audit', filters: ['actor', 'action', 'target_type', 'target_id', 'from', 'to'] },
};

const ONE: Record<string, string> = {
  partners: '/admin/partners',
  places: '/admin/places',
  beneficiaries: '/admin/beneficiaries',
  deliveries: '/admin/deliveries',
  accounts: '/admin/accounts',
};

/** Lists that the service also writes out as a CSV file, with the same filters. */
const EXPORTS: Record<string, string> = {
  visits: '/admin/visits/export',
  deliveries: '/admin/deliveries/export',
  beneficiaries: '/admin/beneficiaries/export',
  audit: '/admin/audit/export',
};

/** Fields a PATCH of each resource may carry (everything else in the form is read-only). */
const EDITABLE: Record<string, string[]> = {
  partners: ['name'],
  places: ['name', 'active'],
  'benefit-plans': ['name', 'tier', 'monthly_visit_limit', 'meal_plan', 'appointment', 'active'],
  beneficiaries: ['name', 'email', 'phone', 'birthday', 'active', 'benefit_plan_code'],
  accounts: ['name', 'role', 'partner_id', 'place_ids', 'active'],
};

const enc = encodeURIComponent;

function pick(filter: Record<string, unknown>, names: string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of names) {
    const value = filter[name];
    // A switch that is off (false) filters nothing.
    if (value !== undefined && value !== null && value !== '' && value !== false) query[name] = String(value);
  }
  return query;
}

function withId<T extends object>(item: T, idField?: string): T & RaRecord {
  const record = item as T & { id?: Identifier };
  return { ...record, id: idField ? (record as Record<string, Identifier>)[idField] : record.id } as T &
    RaRecord;
}

/** The changed, editable fields only: a PATCH never resends what the person did not touch. */
function changes(resource: string, data: Record<string, unknown>, previous: Record<string, unknown>) {
  const body: Record<string, unknown> = {};
  for (const field of EDITABLE[resource] ?? []) {
    if (!(field in data)) continue;
    let value = data[field];
    if (value === '' && field !== 'name') value = null;
    if (JSON.stringify(value) !== JSON.stringify(previous[field] ?? null)) body[field] = value;
  }
  return body;
}

function notFound(): never {
  throw new HttpError('app.error.not_found', 404);
}

/** Benefit plans come as one short list: paged and searched here. */
async function benefitPlanList(params: GetListParams) {
  const plans = await api.get<Record<string, unknown>[]>('/admin/benefit-plans');
  const q = String(params.filter?.q ?? '')
    .trim()
    .toLowerCase();
  const matching = plans
    .filter((plan) => !q || `${plan.code} ${plan.name}`.toLowerCase().includes(q))
    .map((plan) => withId(plan, 'code'));
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
  return { data: matching.slice((page - 1) * perPage, page * perPage), total: matching.length };
}

/** Recent check-ins of one place: the place's own route, 50 a page. */
async function placeVisitList(params: GetListParams) {
  const placeId = params.filter?.place_id;
  if (!placeId) return { data: [], total: 0 };
  const { page } = params.pagination ?? { page: 1 };
  const result = await api.get<Page<RaRecord>>(`/admin/places/${enc(placeId)}/track-usages`, {
    page,
    from: params.filter?.from,
    to: params.filter?.to,
  });
  return { data: result.data.map((item) => withId(item)), total: result.total };
}

/** Member check-ins made in the app at one place, newest first, optionally of one status. */
async function placeAppCheckInList(params: GetListParams) {
  const placeId = params.filter?.place_id;
  if (!placeId) return { data: [], total: 0 };
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 50 };
  const result = await api.get<Page<RaRecord>>(`/admin/places/${enc(placeId)}/check-ins`, {
    page,
    page_size: perPage,
    status: params.filter?.status || undefined,
  });
  return { data: result.data, total: result.total };
}

/** A beneficiary's visits at every place, newest first. */
async function beneficiaryVisitList(params: GetListParams) {
  const code = params.filter?.beneficiary;
  if (!code) return { data: [], total: 0 };
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 10 };
  const result = await api.get<Page<RaRecord>>(`/admin/beneficiaries/${enc(code)}/visits`, {
    page,
    page_size: perPage,
  });
  return { data: result.data.map((item) => withId(item)), total: result.total };
}

/** A beneficiary's member check-ins at every place, newest first. */
async function beneficiaryCheckInList(params: GetListParams) {
  const code = params.filter?.beneficiary;
  if (!code) return { data: [], total: 0 };
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 10 };
  const result = await api.get<Page<RaRecord>>(`/admin/beneficiaries/${enc(code)}/check-ins`, {
    page,
    page_size: perPage,
  });
  return { data: result.data, total: result.total };
}

function normalizeDelivery(delivery: Delivery): Delivery & { attempt_log: unknown[]; id: string } {
  const log = Array.isArray(delivery.attempts) ? delivery.attempts : [];
  return {
    ...delivery,
    attempts: Array.isArray(delivery.attempts) ? log.length : delivery.attempts,
    attempt_log: log,
  };
}

const standard = {
  async getList(resource: string, params: GetListParams) {
    if (resource === 'benefit-plans') return benefitPlanList(params);
    if (resource === 'place-visits') return placeVisitList(params);
    if (resource === 'place-app-check-ins') return placeAppCheckInList(params);
    if (resource === 'beneficiary-visits') return beneficiaryVisitList(params);
    if (resource === 'beneficiary-check-ins') return beneficiaryCheckInList(params);
    const list = PAGED_LISTS[resource];
    if (!list) throw new Error(`Unknown resource ${resource}`);
    const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
    const result = await api.get<Page<RaRecord>>(list.path, {
      ...pick(params.filter ?? {}, list.filters),
      page,
      page_size: perPage,
    });
    return { data: result.data.map((item) => withId(item, list.idField)), total: result.total };
  },

  async getOne(resource: string, params: { id: Identifier }) {
    if (resource === 'benefit-plans') {
      const plans = await api.get<Record<string, unknown>[]>('/admin/benefit-plans');
      const plan = plans.find((candidate) => candidate.code === params.id);
      return { data: plan ? withId(plan, 'code') : notFound() };
    }
    const path = ONE[resource];
    if (!path) throw new Error(`Unknown resource ${resource}`);
    const item = await api.get<Record<string, unknown>>(`${path}/${enc(String(params.id))}`);
    if (resource === 'deliveries') return { data: normalizeDelivery(item as unknown as Delivery) };
    return { data: withId(item, resource === 'beneficiaries' ? 'code' : undefined) };
  },

  async getMany(resource: string, params: { ids: Identifier[] }) {
    const data = await Promise.all(
      params.ids.map((id) => standard.getOne(resource, { id }).then((result) => result.data)),
    );
    return { data };
  },

  async getManyReference(resource: string, params: GetListParams & { target: string; id: Identifier }) {
    return standard.getList(resource, {
      ...params,
      filter: { ...params.filter, [params.target]: params.id },
    });
  },

  async create(resource: string, params: { data: Record<string, unknown> }) {
    switch (resource) {
      case 'accounts': {
        const result = await api.post<{ account: Account; password_link: PasswordLink }>(
          '/admin/accounts',
          params.data,
        );
        return { data: { ...result.account, password_link: result.password_link } };
      }
      case 'partners':
      case 'places':
      case 'beneficiaries':
      case 'benefit-plans': {
        const created = await api.post<Record<string, unknown>>(`/admin/${resource}`, params.data);
        const idField = resource === 'beneficiaries' || resource === 'benefit-plans' ? 'code' : undefined;
        return { data: withId(created, idField) };
      }
      default:
        throw new Error(`Cannot create ${resource}`);
    }
  },

  async update(
    resource: string,
    params: { id: Identifier; data: Record<string, unknown>; previousData: Record<string, unknown> },
  ) {
    const path = resource === 'benefit-plans' ? '/admin/benefit-plans' : ONE[resource];
    if (!path || !EDITABLE[resource]) throw new Error(`Cannot update ${resource}`);
    const body = changes(resource, params.data, params.previousData);
    if (Object.keys(body).length === 0) return { data: params.previousData as RaRecord };
    const updated = await api.patch<Record<string, unknown>>(`${path}/${enc(String(params.id))}`, body);
    const idField = resource === 'beneficiaries' || resource === 'benefit-plans' ? 'code' : undefined;
    return { data: { ...params.previousData, ...withId(updated, idField) } };
  },

  async updateMany(): Promise<never> {
    throw new Error('Not supported');
  },

  async delete(): Promise<never> {
    throw new Error('Not supported');
  },

  async deleteMany(): Promise<never> {
    throw new Error('Not supported');
  },
};

/**
 * The address of a list's CSV file with the list's filters (a plain link: the browser downloads it with the
 * session cookie), or undefined for a list without one. Not a data provider method: those must answer promises.
 */
export function exportUrl(resource: string, filter: Record<string, unknown>): string | undefined {
  const path = EXPORTS[resource];
  const list = PAGED_LISTS[resource];
  return path && list ? withQuery(path, pick(filter, list.filters)) : undefined;
}

/** What the screens call beyond react-admin's CRUD methods. */
const custom = {
  // Home pages
  overview: (placeId?: string) => api.get<Overview>('/admin/overview', { place_id: placeId }),

  // Beneficiaries
  beneficiaryUsage: (code: string) => api.get<BeneficiaryUsage>(`/admin/beneficiaries/${enc(code)}/usage`),

  // Keys
  revealKeys: (placeId: string) => api.post<Keys>(`/admin/places/${enc(placeId)}/keys/reveal`),
  rotatePlaceKey: (placeId: string) =>
    api.post<{ place_api_key: string }>(`/admin/places/${enc(placeId)}/api-key`),
  rotatePartnerKey: (partnerId: number | string) =>
    api.post<{ partner_api_key: string }>(`/admin/partners/${enc(String(partnerId))}/api-key`),

  // Plans of a place
  addPlan: (
    placeId: string,
    plan: { name: string; code?: string; tier: number; externalReference?: string },
  ) => api.post<Plan>(`/admin/places/${enc(placeId)}/plans`, plan),
  removePlan: (placeId: string, code: string) =>
    api.delete<Plan>(`/admin/places/${enc(placeId)}/plans/${enc(code)}`),

  // Webhooks of a place
  webhooks: (placeId: string) =>
    api
      .get<{ webhooks: Webhook[] }>(`/admin/places/${enc(placeId)}/webhooks`)
      .then((result) => result.webhooks),
  createWebhook: (placeId: string, webhookUrl: string, type = 'CHECKIN') =>
    api
      .post<{ webhook: Webhook }>(`/admin/places/${enc(placeId)}/webhooks`, {
        webhook_url: webhookUrl,
        webhook_type: type,
      })
      .then((result) => result.webhook),
  updateWebhook: (placeId: string, type: string, webhookUrl: string) =>
    api.put<{ webhook: Webhook }>(`/admin/places/${enc(placeId)}/webhooks/${enc(type)}`, {
      webhook_url: webhookUrl,
    }),
  deleteWebhook: (placeId: string, type: string) =>
    api.delete<unknown>(`/admin/places/${enc(placeId)}/webhooks/${enc(type)}`),
  testWebhook: (placeId: string, type: string) =>
    api.post<unknown>(`/admin/places/${enc(placeId)}/webhooks/${enc(type)}/test`),

  // Deliveries
  redeliver: (deliveryId: string) => api.post<unknown>(`/admin/deliveries/${enc(deliveryId)}/redeliver`),

  // Beneficiaries
  importBeneficiaries: (rows: Record<string, unknown>[]) =>
    api.post<BulkImportResult>('/admin/beneficiaries/bulk', { beneficiaries: rows }),

  // Accounts and password links
  passwordResetLink: (accountId: Identifier) =>
    api.post<PasswordLink>(`/admin/accounts/${enc(String(accountId))}/password-link`),
  passwordLink: (token: string) => api.get<PasswordLinkInfo>(`/account/password-links/${enc(token)}`),
  setPassword: (token: string, password: string) =>
    api.post<unknown>(`/account/password-links/${enc(token)}`, { password }),
};

export type ConsoleDataProvider = DataProvider & typeof custom;

/** What <Admin> receives; screens reach the extra methods with useDataProvider<ConsoleDataProvider>(). */
export const dataProvider: ConsoleDataProvider = { ...(standard as unknown as DataProvider), ...custom };
