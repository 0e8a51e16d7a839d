import { Module } from '@nestjs/common';
import { EligibilityRepository } from './eligibility.repository';
import { EligibilityService } from './eligibility.service';
import { VisitsRepository } from './visits.repository';

/**
 * Who may check in: the request's shape (rule 1, track-usage-request.ts), rules 2 to 9 (eligibility.ts), the
 * facts they read and what an admission writes (EligibilityRepository: the beneficiary's lock and version, the
 * visit; it owns the visits table, which the control panel reads through VisitsRepository). Shared by the
 * gym's check-in routes, member check-ins (created and confirmed under the same rules) and the app validation.
 */
@Module({
  providers: [EligibilityRepository, EligibilityService, VisitsRepository],
  exports: [EligibilityRepository, EligibilityService, VisitsRepository],
})
export class EligibilityModule {}
