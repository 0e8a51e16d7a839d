import { Injectable } from '@nestjs/common';
import { BeneficiaryProfilesRepository } from '../beneficiaries/beneficiary-profiles.repository';
import { cannotExist, notExists } from './eligibility';
import { parseIdentifierRequest } from './track-usage-request';

/** The beneficiary code by CPF (or by code, which confirms it). */
@Injectable()
export class BeneficiaryCodeService {
  constructor(private readonly profiles: BeneficiaryProfilesRepository) {}

  async findCode(body: unknown): Promise<string> {
    const request = parseIdentifierRequest(body);
    if (cannotExist(request)) throw notExists(request);
    const profile = await this.profiles.findBy(request.type, request.identifier);
    if (!profile || !profile.benefitPlanActive) throw notExists(request);
    return profile.code;
  }
}
