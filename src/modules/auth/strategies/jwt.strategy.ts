import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { ApiKeysRepository } from '../../partners/api-keys.repository';
import { AuthenticatedPlace, authenticatedPlace, PartnerTokenClaims } from '../auth.types';

export const JWT_STRATEGY = 'partner-jwt';

/** `Authorization: Bearer <ACCESS_TOKEN>` → the place the token was issued for, while its keys are current. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly repository: ApiKeysRepository,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.jwtSecret,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(claims: PartnerTokenClaims): Promise<AuthenticatedPlace | false> {
    if (typeof claims.sub !== 'string' || claims.sub.length > 36) return false;
    const place = await this.repository.findPlaceById(claims.sub);
    if (!place || place.partnerId !== claims.partner_id) return false;
    // A rotated key revokes the tokens issued with the old one.
    if (place.keyVersion !== claims.pkv || place.partnerKeyVersion !== claims.ptkv) return false;
    return authenticatedPlace(place);
  }
}
