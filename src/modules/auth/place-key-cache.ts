import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PlaceKeyRow } from './auth.repository';

interface Entry {
  place: PlaceKeyRow | null;
  expiresAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Short-lived cache of key hash → place, so a turnstile burst does not look its key up on every request.
 * Rotation and place changes drop the entries at once in this process; other processes see them within
 * `KEY_CACHE_TTL_MS`. Unknown keys are cached too, so a flood of bad keys does not reach the database.
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
