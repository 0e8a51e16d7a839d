import { Module } from '@nestjs/common';
import { BeneficiariesModule } from '../beneficiaries/beneficiaries.module';
import { MemberCheckInsModule } from '../member-check-ins/member-check-ins.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { BeneficiaryCodeService } from './beneficiary-code.service';
import { CheckInController } from './check-in.controller';
import { CheckInService } from './check-in.service';
import { EligibilityModule } from './eligibility.module';
import { IdempotencyPurge } from './idempotency-purge.service';

@Module({
  imports: [EligibilityModule, BeneficiariesModule, WebhooksModule, MemberCheckInsModule],
  controllers: [CheckInController],
  providers: [CheckInService, BeneficiaryCodeService, IdempotencyPurge],
})
export class CheckInModule {}
