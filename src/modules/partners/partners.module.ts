import { Module } from '@nestjs/common';
import { PartnersRepository } from './partners.repository';
import { PlaceSummaryRepository } from './place-summary.repository';

/**
 * Partners, places and plans: the owner of their tables (PartnersRepository) and of the places' check-in summary
 * (PlaceSummaryRepository); other modules call these.
 */
@Module({
  providers: [PartnersRepository, PlaceSummaryRepository],
  exports: [PartnersRepository, PlaceSummaryRepository],
})
export class PartnersModule {}
