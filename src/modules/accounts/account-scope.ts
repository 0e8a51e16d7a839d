import { invalidParameter } from '../../common/errors/domain-error';
import { Role } from './entities/account.entity';

export interface AccountScope {
  partnerId: number | null;
  placeIds: string[];
}

/**
 * The scope an account ends up with: a gym account has a partner or a list of places (never both, never
 * neither); operators and support have neither. `given` holds what the request sent (undefined: not sent),
 * `current` what the account has now (nothing for a new account).
 */
export function resolveScope(
  role: Role,
  given: { partnerId?: number | null; placeIds?: string[] | null },
  current: AccountScope = { partnerId: null, placeIds: [] },
): AccountScope {
  const partnerId = given.partnerId ?? null;
  const placeIds = [...new Set(given.placeIds ?? [])];
  if (role !== 'gym') {
    if (partnerId !== null || placeIds.length > 0) throw invalidParameter('accounts.scopeOnlyForGym');
    return { partnerId: null, placeIds: [] };
  }
  if (partnerId !== null && placeIds.length > 0) throw invalidParameter('accounts.scopeBoth');
  if (partnerId !== null) return { partnerId, placeIds: [] };
  if (placeIds.length > 0) return { partnerId: null, placeIds };
  const clearing = given.partnerId === null || given.placeIds !== undefined;
  if (!clearing && (current.partnerId !== null || current.placeIds.length > 0)) return current;
  throw invalidParameter('accounts.scopeRequired');
}
