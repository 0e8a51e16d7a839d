import { Module } from '@nestjs/common';
import { BeneficiariesRepository } from './beneficiaries.repository';
import { BeneficiaryProfilesRepository } from './beneficiary-profiles.repository';

/**
 * Beneficiaries and benefit plans: the owner of their tables. BeneficiariesRepository serves the control panel
 * and the bulk import; BeneficiaryProfilesRepository the partner routes' profile look-ups.
 */
@Module({
  providers: [BeneficiariesRepository, BeneficiaryProfilesRepository],
  exports: [BeneficiariesRepository, BeneficiaryProfilesRepository],
})
export class BeneficiariesModule {}
