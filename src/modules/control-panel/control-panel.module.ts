import { Module } from '@nestjs/common';
import { BeneficiariesAdminController } from './beneficiaries-admin.controller';
import { BeneficiariesAdminService } from './beneficiaries-admin.service';
import { ControlPanelRepository } from './control-panel.repository';
import { PartnersAdminController } from './partners-admin.controller';
import { PartnersAdminService } from './partners-admin.service';

/** The platform operators' API: `Authorization: Bearer <ADMIN_API_TOKEN>`. */
@Module({
  controllers: [PartnersAdminController, BeneficiariesAdminController],
  providers: [ControlPanelRepository, PartnersAdminService, BeneficiariesAdminService],
})
export class ControlPanelModule {}
