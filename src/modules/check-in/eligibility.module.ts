import { Module } from '@nestjs/common';
import { CheckInRepository } from './check-in.repository';
import { EligibilityService } from './eligibility.service';

/**
 * The check-in rules and the queries they read, shared by the gym's check-in routes and by member check-ins
 * (which are created and confirmed under the same rules).
 */
@Module({
  providers: [CheckInRepository, EligibilityService],
  exports: [CheckInRepository, EligibilityService],
})
export class EligibilityModule {}
