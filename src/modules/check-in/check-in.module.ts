import { Module } from '@nestjs/common';
import { BeneficiariesModule } from '../beneficiaries/beneficiaries.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { BeneficiaryCodeService } from './beneficiary-code.service';
import { CheckInController } from './check-in.controller';
import { CheckInRepository } from './check-in.repository';
import { CheckInService } from './check-in.service';
import { IdempotencyPurge } from './idempotency-purge.service';

@Module({
  imports: [BeneficiariesModule, WebhooksModule],
  controllers: [CheckInController],
  providers: [CheckInRepository, CheckInService, BeneficiaryCodeService, IdempotencyPurge],
})
export class CheckInModule {}
