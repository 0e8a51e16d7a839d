import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PartnersModule } from '../partners/partners.module';
import { DeliveriesAdminController } from './deliveries-admin.controller';
import { DeliveriesAdminRepository } from './deliveries-admin.repository';
import { DeliveryHealthRepository } from './delivery-health.repository';
import { QueueDashboard } from './queue-dashboard';
import { DeliveriesRepository } from './delivery/deliveries.repository';
import { DeliveryPoller } from './delivery/delivery-poller';
import { DeliveryProcessor } from './delivery/delivery.processor';
import { DeliveryRecorder } from './delivery/delivery-recorder';
import { DeliveryRunner } from './delivery/delivery-runner';
import { WebhookOutboxService } from './delivery/webhook-outbox.service';
import { WebhookSender } from './delivery/webhook-sender';
import { WebhookMetrics } from './webhook-metrics';
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
    // Delivery: the outbox, the poller, the runner (worker) and the sender.
    WebhookOutboxService,
    DeliveriesRepository,
    DeliveryPoller,
    DeliveryRecorder,
    DeliveryRunner,
    DeliveryProcessor,
    WebhookSender,
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
