import { Module } from '@nestjs/common';
import { WebhookOutboxService } from './webhook-outbox.service';

@Module({
  providers: [WebhookOutboxService],
  exports: [WebhookOutboxService],
})
export class WebhooksModule {}
