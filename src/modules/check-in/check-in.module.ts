import { Module } from '@nestjs/common';
import { BeneficiariesModule } from '../beneficiaries/beneficiaries.module';
import { EligibilityModule } from '../eligibility/eligibility.module';
import { MemberCheckInsModule } from '../member-check-ins/member-check-ins.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { BeneficiaryCodeService } from './beneficiary-code.service';
import { CheckInController } from './check-in.controller';
import { CheckInRepository } from './check-in.repository';
import { CheckInService } from './check-in.service';
import { IdempotencyPurge } from './idempotency-purge.service';

/** The gym's check-in routes: validate, register (with its idempotency records), the beneficiary code. */
@Module({
  imports: [EligibilityModule, BeneficiariesModule, WebhooksModule, MemberCheckInsModule],
  controllers: [CheckInController],
  providers: [CheckInService, CheckInRepository, BeneficiaryCodeService, IdempotencyPurge],
})
export class CheckInModule {}
