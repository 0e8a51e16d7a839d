import { Module } from '@nestjs/common';
import { BeneficiaryProfilesRepository } from './beneficiary-profiles.repository';

@Module({
  providers: [BeneficiaryProfilesRepository],
  exports: [BeneficiaryProfilesRepository],
})
export class BeneficiariesModule {}
