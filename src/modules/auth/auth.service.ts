import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { hashKey } from '../../common/crypto/key-vault';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ApiKeysRepository } from '../partners/api-keys.repository';
import { PartnerTokenClaims } from './auth.types';
import { PartnerAuthRequestDto, PartnerAuthResponseDto } from './dto/partner-auth.dto';

@Injectable()
export class AuthService {
  constructor(
    private readonly repository: ApiKeysRepository,
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Exchanges a gym's pair of keys for a bearer token; the place must belong to the partner. */
  async issueToken(request: PartnerAuthRequestDto): Promise<PartnerAuthResponseDto> {
    const [place, partner] = await Promise.all([
      this.repository.findPlaceByKeyHash(hashKey(request.place_api_key)),
      this.repository.findPartnerByKeyHash(hashKey(request.partner_api_key)),
    ]);
    if (!place || !partner || place.partnerId !== partner.id) {
      throw new DomainError('invalid_credentials');
    }
    const claims: PartnerTokenClaims = {
      sub: place.id,
      partner_id: partner.id,
      pkv: place.keyVersion,
      ptkv: partner.keyVersion,
    };
    const token = await this.jwt.signAsync(claims, {
      secret: this.config.jwtSecret,
      algorithm: 'HS256',
      expiresIn: this.config.jwtTtlSeconds,
    });
    return {
      partner: { name: partner.name, partnerApiKey: request.partner_api_key },
      place: { name: place.name, placeApiKey: request.place_api_key },
      token,
    };
  }
}
