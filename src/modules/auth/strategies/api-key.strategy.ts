import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { hashKey } from '../../../common/crypto/key-vault';
import { ApiKeysRepository } from '../../partners/api-keys.repository';
import { AuthenticatedPlace, authenticatedPlace } from '../auth.types';
import { PlaceKeyCache } from '../place-key-cache';

export const API_KEY_STRATEGY = 'api-key';

/** `x-api-key: <PLACE_API_KEY>` → the place it belongs to. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, API_KEY_STRATEGY) {
  constructor(
    private readonly repository: ApiKeysRepository,
    private readonly cache: PlaceKeyCache,
  ) {
    super({ header: 'x-api-key', prefix: '' }, false);
  }

  async validate(apiKey: string): Promise<AuthenticatedPlace | false> {
    if (!apiKey || apiKey.length > 256) return false;
    const hash = hashKey(apiKey);
    const place = await this.cache.resolve(hash, () => this.repository.findPlaceByKeyHash(hash));
    if (!place) return false;
    return authenticatedPlace(place);
  }
}
