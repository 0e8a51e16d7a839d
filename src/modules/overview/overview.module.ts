import { Module } from '@nestjs/common';
import { PartnersModule } from '../partners/partners.module';
import { MemberCheckInsModule } from '../member-check-ins/member-check-ins.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CheckInTally } from './check-in-tally';
import { OverviewController } from './overview.controller';
import { OverviewRepository } from './overview.repository';
import { OverviewService } from './overview.service';

/**
 * The console's overviews: aggregates over check-ins, deliveries and member check-ins by scope, and the hourly
 * count of check-in answers (CheckInTally) they chart.
 */
@Module({
  imports: [PartnersModule, WebhooksModule, MemberCheckInsModule],
  controllers: [OverviewController],
  providers: [OverviewRepository, OverviewService, CheckInTally],
  exports: [CheckInTally],
})
export class OverviewModule {}
