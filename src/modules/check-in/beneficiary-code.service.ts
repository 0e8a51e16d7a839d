import { Injectable } from '@nestjs/common';
import { AuthenticatedPlace } from '../auth/auth.types';
import { PlaceKeyCache } from '../auth/place-key-cache';
import { BeneficiaryProfilesRepository } from '../beneficiaries/beneficiary-profiles.repository';
import { TokenCheckInsService } from '../member-check-ins/token-check-ins.service';
import { cannotExist, notExists } from '../eligibility/eligibility';
import { parseIdentifierRequest } from '../eligibility/track-usage-request';

/** The beneficiary code by CPF (or by code, which confirms it, or by the token of a member check-in). */
@Injectable()
export class BeneficiaryCodeService {
  constructor(
    private readonly profiles: BeneficiaryProfilesRepository,
    private readonly tokens: TokenCheckInsService,
    private readonly keyCache: PlaceKeyCache,
  ) {}

  async findCode(place: AuthenticatedPlace, body: unknown): Promise<string> {
    const request = parseIdentifierRequest(body);
    if (request.type === 'token') return this.tokens.beneficiaryCode(place, request);
    const by = cannotExist(request) ? null : { field: request.type, value: request.identifier };
    const found = await this.profiles.findAtPlace(place.placeId, by);
    this.keyCache.assertCurrent(place, found);
    const { profile } = found;
    if (!profile || !profile.benefitPlanActive) throw notExists(request);
    return profile.code;
  }
}
