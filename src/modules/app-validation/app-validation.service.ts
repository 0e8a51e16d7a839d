import { Injectable } from '@nestjs/common';
import { BeneficiaryProfilesRepository } from '../beneficiaries/beneficiary-profiles.repository';
import { cannotExist, checkBeneficiaryStanding } from '../check-in/eligibility';
import { parseAppValidationRequest } from '../check-in/track-usage-request';
import { AppValidationResponseDto } from './dto/app-validation.dto';

/** Eligibility for a partner app: who the beneficiary is and what the benefit plan includes. */
@Injectable()
export class AppValidationService {
  constructor(private readonly profiles: BeneficiaryProfilesRepository) {}

  async validate(body: unknown): Promise<AppValidationResponseDto> {
    const { cpf } = parseAppValidationRequest(body);
    const request = { type: 'cpf' as const, identifier: cpf };
    const profile = cannotExist(request) ? undefined : await this.profiles.findBy('cpf', cpf);
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
