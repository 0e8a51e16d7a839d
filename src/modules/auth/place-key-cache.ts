import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PlaceKeyRow } from '../partners/api-keys.repository';
import { AuthenticatedPlace } from './auth.types';

/** 401 `invalid_api_key`. */
export function invalidApiKey(): DomainError {
  return new DomainError('invalid_api_key');
}

interface Entry {
  place: PlaceKeyRow | null;
  expiresAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Short-lived cache of key hash → place, so a turnstile burst does not look its key up on every request.
 * Rotation and place changes drop the entries at once in this process; in other processes the routes behind
 * the key read the place's key version in their own query and call `assertCurrent`, so a rotated key
 * is refused at once there too. Unknown keys are cached too, so a flood of bad keys does not reach the database.
 */
@Injectable()
export class PlaceKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async resolve(hash: string, load: () => Promise<PlaceKeyRow | undefined>): Promise<PlaceKeyRow | null> {
    const now = Date.now();
    const hit = this.entries.get(hash);
    if (hit && hit.expiresAt > now) return hit.place;
    const place = (await load()) ?? null;
    if (this.config.keyCacheTtlMs > 0) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, { place, expiresAt: now + this.config.keyCacheTtlMs });
    }
    return place;
  }

  /**
   * Passes when the request's own query found the place with the key version its key resolved to. Otherwise
   * the place is gone or its key was rotated in another process since this one cached it: drops the place's
   * entries and throws the 401.
   */
  assertCurrent<T extends { keyVersion: number }>(
    place: AuthenticatedPlace,
    found: T | undefined,
  ): asserts found is T {
    if (found && found.keyVersion === place.keyVersion) return;
    this.invalidatePlace(place.placeId);
    throw invalidApiKey();
  }

  /** Forgets every entry of a place (after a rotation or a change of the place or its partner). */
  invalidatePlace(placeId: string): void {
    for (const [hash, entry] of this.entries) if (entry.place?.id === placeId) this.entries.delete(hash);
  }

  invalidatePartner(partnerId: number): void {
    for (const [hash, entry] of this.entries)
      if (entry.place?.partnerId === partnerId) this.entries.delete(hash);
  }

  clear(): void {
    this.entries.clear();
  }
}
