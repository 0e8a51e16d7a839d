import { Module } from '@nestjs/common';
import { PlaceSummaryRepository } from './place-summary.repository';

/** Partners and places: what several modules share of them. */
@Module({
  providers: [PlaceSummaryRepository],
  exports: [PlaceSummaryRepository],
})
export class PartnersModule {}
