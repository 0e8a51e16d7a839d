import { Module } from '@nestjs/common';
import { BeneficiariesModule } from '../beneficiaries/beneficiaries.module';
import { EligibilityModule } from '../eligibility/eligibility.module';
import { PartnersModule } from '../partners/partners.module';
import { BeneficiariesAdminController } from './beneficiaries-admin.controller';
import { BeneficiariesAdminService } from './beneficiaries-admin.service';
import { BenefitPlansAdminController } from './benefit-plans-admin.controller';
import { BenefitPlansAdminService } from './benefit-plans-admin.service';
import { KeyRotation } from './key-rotation';
import { PartnersAdminController } from './partners-admin.controller';
import { PartnersAdminService } from './partners-admin.service';
import { PlacesAdminController } from './places-admin.controller';
import { PlacesAdminService } from './places-admin.service';
import { VisitsAdminController } from './visits-admin.controller';

/** The control-panel API: `Authorization: Bearer <ADMIN_API_TOKEN>` or a console session, by role. */
@Module({
  imports: [PartnersModule, BeneficiariesModule, EligibilityModule],
  controllers: [
    PartnersAdminController,
    PlacesAdminController,
    BenefitPlansAdminController,
    BeneficiariesAdminController,
    VisitsAdminController,
  ],
  providers: [
    PartnersAdminService,
    PlacesAdminService,
    BenefitPlansAdminService,
    BeneficiariesAdminService,
    KeyRotation,
  ],
})
export class ControlPanelModule {}
