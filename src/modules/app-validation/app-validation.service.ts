import { Injectable } from '@nestjs/common';
import { AuthenticatedPlace } from '../auth/auth.types';
import { PlaceKeyCache } from '../auth/place-key-cache';
import { BeneficiaryProfilesRepository } from '../beneficiaries/beneficiary-profiles.repository';
import { cannotExist, checkBeneficiaryStanding } from '../eligibility/eligibility';
import { parseAppValidationRequest } from '../eligibility/track-usage-request';
import { AppValidationResponseDto } from './dto/app-validation.dto';

/** Eligibility for a partner app: who the beneficiary is and what the benefit plan includes. */
@Injectable()
export class AppValidationService {
  constructor(
    private readonly profiles: BeneficiaryProfilesRepository,
    private readonly keyCache: PlaceKeyCache,
  ) {}

  async validate(place: AuthenticatedPlace, body: unknown): Promise<AppValidationResponseDto> {
    const { cpf } = parseAppValidationRequest(body);
    const request = { type: 'cpf' as const, identifier: cpf };
    const by = cannotExist(request) ? null : { field: 'cpf' as const, value: cpf };
    const found = await this.profiles.findAtPlace(place.placeId, by);
    this.keyCache.assertCurrent(place, found);
    const profile = found.profile;
    checkBeneficiaryStanding(request, profile);
    return {
      employee_data: {
        name: profile.name,
        email: profile.email,
        birthday: profile.birthday,
        phone: profile.phone,
      },
      app_data: { meal_plan: profile.mealPlan, appointment: profile.appointment },
    };
  }
}
