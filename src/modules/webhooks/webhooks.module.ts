import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PartnersModule } from '../partners/partners.module';
import { DeliveriesAdminController } from './deliveries-admin.controller';
import { DeliveriesAdminRepository } from './deliveries-admin.repository';
import { QueueDashboard } from './queue-dashboard';
import { RetryableDeliveryError, WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookOutboxService } from './webhook-outbox.service';
import { retryDelayMs } from './webhook-policy';
import { WebhookRelay } from './webhook-relay.service';
import { WebhookSender } from './webhook-sender';
import { BACKOFF_STRATEGY, WEBHOOK_QUEUE } from './webhooks.constants';
import { WebhooksAdminController } from './webhooks-admin.controller';
import { WebhooksAdminService } from './webhooks-admin.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [
    PartnersModule,
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ redis: config.redisUrl, prefix: config.queuePrefix }),
    }),
    BullModule.registerQueueAsync({
      name: WEBHOOK_QUEUE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        settings: {
          backoffStrategies: {
            // The processor decides the delay (schedule, jitter, Retry-After) and records it on the row.
            [BACKOFF_STRATEGY]: (attemptsMade: number, error: Error) =>
              error instanceof RetryableDeliveryError
                ? error.delayMs
                : retryDelayMs(config.webhookRetrySchedule, attemptsMade),
          },
        },
      }),
    }),
  ],
  controllers: [WebhooksController, WebhooksAdminController, DeliveriesAdminController],
  providers: [
    WebhooksRepository,
    WebhookOutboxService,
    WebhookRelay,
    WebhookSender,
    WebhookDeliveryService,
    WebhookDeliveryProcessor,
    WebhooksService,
    QueueDashboard,
    DeliveriesAdminRepository,
    WebhooksAdminService,
    WebhookMetrics,
  ],
  exports: [WebhookOutboxService],
})
export class WebhooksModule {}
