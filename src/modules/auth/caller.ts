import type { FastifyRequest } from 'fastify';
import type { Role } from '../accounts/entities/account.entity';
import { AuthenticatedPlace } from './auth.types';

/** The account behind a console session, with its scope, as read on each request. */
export interface SessionAccount {
  id: number;
  email: string;
  name: string;
  role: Role;
  /** A chain account: every place of this partner. */
  partnerId: number | null;
  /** An account of listed places (empty for a chain account and for staff). */
  placeIds: string[];
}

/** Who made a change, as the audit log records it. */
export interface AuditActor {
  type: 'account' | 'admin-token' | 'place';
  id: string | null;
  label: string;
  address: string | null;
  requestId: string | null;
}

/** Which places a caller reaches: all of them, a partner's, or a list. */
export type PlaceScope = { all: true } | { partnerId: number } | { placeIds: string[] };

function origin(request: FastifyRequest): Pick<AuditActor, 'address' | 'requestId'> {
  return { address: request.ip ?? null, requestId: String(request.id) };
}

/**
 * Whoever calls the `/admin` API: the admin token (an operator) or a person's session. Holds the access
 * rules every service asks: which places it reaches, whether keys and CPFs are shown whole.
 */
export class Caller {
  private constructor(
    readonly account: SessionAccount | null,
    readonly actor: AuditActor,
  ) {}

  static adminToken(request: FastifyRequest): Caller {
    return new Caller(null, { type: 'admin-token', id: null, label: 'admin-token', ...origin(request) });
  }

  static session(account: SessionAccount, request: FastifyRequest): Caller {
    return new Caller(account, {
      type: 'account',
      id: String(account.id),
      label: account.email,
      ...origin(request),
    });
  }

  get role(): Role {
    return this.account?.role ?? 'operator';
  }

  /** Operators see keys whole; support and gyms see them masked unless a gym reveals them. */
  get seesWholeKeys(): boolean {
    return this.role === 'operator';
  }

  /** Support reads CPFs masked; operators, and gyms for their own places' visitors, see them whole. */
  get seesWholeCpfs(): boolean {
    return this.role !== 'support';
  }

  get placeScope(): PlaceScope {
    const account = this.account;
    if (!account || account.role !== 'gym') return { all: true };
    if (account.partnerId !== null) return { partnerId: account.partnerId };
    return { placeIds: account.placeIds };
  }

  reachesPlace(place: { id: string; partnerId: number }): boolean {
    const scope = this.placeScope;
    if ('all' in scope) return true;
    if ('partnerId' in scope) return scope.partnerId === place.partnerId;
    return scope.placeIds.includes(place.id);
  }

  /** Reads or rotates a partner's key: operators, and a chain account of that partner. */
  reachesPartnerKey(partnerId: number): boolean {
    if (this.role === 'operator') return true;
    return this.role === 'gym' && this.account?.partnerId === partnerId;
  }
}

/** A place acting through its bearer token (webhook changes on `/partner/webhook/*`), for the audit log. */
export function placeActor(place: AuthenticatedPlace, request: FastifyRequest): AuditActor {
  return { type: 'place', id: place.placeId, label: place.placeName, ...origin(request) };
}

/** The places a read covers: the caller's scope, narrowed to one place when it asked for one. */
export interface PlaceReach {
  scope: PlaceScope;
  placeId?: string;
}

/**
 * The SQL condition, on the column naming a row's place, that keeps the rows of the places reached, with its
 * parameters (`TRUE` for staff without a place).
 */
export function placeReachCondition(reach: PlaceReach, placeIdColumn: string): [string, unknown[]] {
  const { scope, placeId } = reach;
  const [condition, params]: [string, unknown[]] =
    'partnerId' in scope
      ? [`${placeIdColumn} IN (SELECT id FROM places WHERE partner_id = ?)`, [scope.partnerId]]
      : 'placeIds' in scope
        ? scope.placeIds.length > 0
          ? [`${placeIdColumn} IN (?)`, [scope.placeIds]]
          : ['FALSE', []]
        : ['TRUE', []];
  if (placeId === undefined) return [condition, params];
  return [`${placeIdColumn} = ? AND ${condition}`, [placeId, ...params]];
}
