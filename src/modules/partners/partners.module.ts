import { Module } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository';
import { PartnersRepository } from './partners.repository';
import { PlaceSummaryRepository } from './place-summary.repository';

/**
 * Partners, places and plans: the owner of their tables (PartnersRepository) and of the places' check-in summary
 * (PlaceSummaryRepository); other modules call these.
 */
@Module({
  providers: [ApiKeysRepository, PartnersRepository, PlaceSummaryRepository],
  exports: [ApiKeysRepository, PartnersRepository, PlaceSummaryRepository],
})
export class PartnersModule {}
