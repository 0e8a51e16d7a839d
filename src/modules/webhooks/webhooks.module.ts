import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PartnersModule } from '../partners/partners.module';
import { DeliveriesAdminController } from './deliveries-admin.controller';
import { DeliveriesAdminRepository } from './deliveries-admin.repository';
import { DeliveryHealthRepository } from './delivery-health.repository';
import { QueueDashboard } from './queue-dashboard';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookOutboxService } from './webhook-outbox.service';
import { WebhookRelay } from './webhook-relay.service';
import { WebhookSender } from './webhook-sender';
import { WEBHOOK_QUEUE } from './webhooks.constants';
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
    // Bull runs attempts and remembers nothing the database does not: no retries, no delays.
    BullModule.registerQueue({ name: WEBHOOK_QUEUE }),
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
    DeliveryHealthRepository,
    WebhooksAdminService,
    WebhookMetrics,
  ],
  exports: [WebhookOutboxService, DeliveryHealthRepository, WebhooksService],
})
export class WebhooksModule {}
