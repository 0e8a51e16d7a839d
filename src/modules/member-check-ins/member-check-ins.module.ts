import { Module } from '@nestjs/common';
import { BeneficiariesModule } from '../beneficiaries/beneficiaries.module';
import { EligibilityModule } from '../eligibility/eligibility.module';
import { PartnersModule } from '../partners/partners.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { MemberGuard } from '../auth/member-auth';
import { CheckInConfirmationService } from './check-in-confirmation.service';
import { CheckInConfirmationsController } from './check-in-confirmations.controller';
import { CheckInTokenGenerator } from './check-in-tokens';
import { MemberCheckInsController } from './member-check-ins.controller';
import { MemberCheckInsRepository } from './member-check-ins.repository';
import { MemberCheckInsService } from './member-check-ins.service';
import { BeneficiaryCheckInsController, PlaceCheckInsController } from './place-check-ins.controller';
import { TokenCheckInsService } from './token-check-ins.service';
import { TokenLookupLimiter } from './token-lookup-limiter';

/**
 * Member check-ins: made in the platform's app (member API), confirmed by the gym at the `endpoint` of their
 * CHECK_IN_CREATED event or with their 6-digit token on /v1/track_usages* (TokenCheckInsService, exported to
 * the check-in module), and listed per place in the control panel.
 */
@Module({
  imports: [BeneficiariesModule, EligibilityModule, PartnersModule, WebhooksModule],
  controllers: [
    MemberCheckInsController,
    CheckInConfirmationsController,
    PlaceCheckInsController,
    BeneficiaryCheckInsController,
  ],
  providers: [
    MemberCheckInsRepository,
    MemberCheckInsService,
    CheckInConfirmationService,
    TokenCheckInsService,
    TokenLookupLimiter,
    CheckInTokenGenerator,
    MemberGuard,
  ],
  exports: [
    TokenCheckInsService,
    MemberCheckInsRepository,
    MemberCheckInsService,
    CheckInConfirmationService,
    TokenLookupLimiter,
  ],
})
export class MemberCheckInsModule {}
