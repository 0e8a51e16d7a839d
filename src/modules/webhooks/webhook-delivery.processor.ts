import { OnQueueFailed, Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { DELIVER_JOB, DeliverJobData, WEBHOOK_QUEUE } from './webhooks.constants';

/** Thin: each job is one attempt; a thrown error makes Bull retry on the schedule or give up. */
@Processor(WEBHOOK_QUEUE)
export class WebhookDeliveryProcessor {
  constructor(private readonly deliveries: WebhookDeliveryService) {}

  @Process({ name: DELIVER_JOB, concurrency: 16 })
  deliver(job: Job<DeliverJobData>): Promise<void> {
    return this.deliveries.attempt(job);
  }

  @OnQueueFailed()
  failed(job: Job<DeliverJobData> | null, error: Error): Promise<void> {
    return this.deliveries.jobFailed(job, error);
  }
}
