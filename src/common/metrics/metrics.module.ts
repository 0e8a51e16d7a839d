import { Global, Module } from '@nestjs/common';
import { DatabasePoolMetrics } from './database-pool-metrics';
import { Metrics } from './metrics';

/** The app's Prometheus registry; each module records into it or adds its own scrape-time gauges. */
@Global()
@Module({
  providers: [Metrics, DatabasePoolMetrics],
  exports: [Metrics],
})
export class MetricsModule {}
