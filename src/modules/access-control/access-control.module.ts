import { Module } from '@nestjs/common';
import { MemberCheckInsModule } from '../member-check-ins/member-check-ins.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AccessGuard } from './access-auth';
import { AccessControlController } from './access-control.controller';
import { AccessControlRepository } from './access-control.repository';
import { AccessControlService } from './access-control.service';
import { IntegrationSetupController } from './integration-setup.controller';
import { IntegrationSetupService } from './integration-setup.service';
import { SandboxController } from './sandbox.controller';
import { SandboxEnabledGuard, SandboxService } from './sandbox.service';

/**
 * The Wellhub-compatible access control (CONTRACT.md): gym software written for that platform's Access Control,
 * Integration Setup and sandbox APIs works against this service with its base address and credentials changed.
 * Validation is the member check-in's own confirmation; the `checkin` event goes through the service's outbox.
 */
@Module({
  imports: [MemberCheckInsModule, WebhooksModule],
  // In this order in the document: the sandbox's example makes the check-in that validate's examples validate.
  controllers: [SandboxController, AccessControlController, IntegrationSetupController],
  providers: [
    AccessControlRepository,
    AccessControlService,
    IntegrationSetupService,
    SandboxService,
    AccessGuard,
    SandboxEnabledGuard,
  ],
})
export class AccessControlModule {}
