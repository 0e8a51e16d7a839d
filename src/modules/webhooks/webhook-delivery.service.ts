import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { KeyVault } from '../../common/crypto/key-vault';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DeliveryStatus } from './entities/webhook-delivery.entity';
import { retryDelayMs } from './webhook-policy';
import { WebhookSender } from './webhook-sender';
import { DeliverJobData } from './webhooks.constants';
import { WebhooksRepository } from './webhooks.repository';

/** A failed attempt that Bull should retry after `delayMs` (read by the queue's backoff strategy). */
export class RetryableDeliveryError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'RetryableDeliveryError';
  }
}

/** One attempt of one delivery: send, log the attempt, and decide what comes next. */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger(WebhookDeliveryService.name);

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly vault: KeyVault,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async attempt(job: Job<DeliverJobData>): Promise<void> {
    const deliveryId = job.data.deliveryId;
    const work = await this.repository.findWork(deliveryId);
    if (!work || work.status === 'delivered') return;
    if (!work.secretCiphertext) {
      await this.repository.markFailed(deliveryId, 'the subscription was deleted');
      await job.discard();
      throw new Error('the subscription was deleted');
    }
    const at = this.clock.now();
    const result = await this.sender.send({
      url: work.url,
      secret: this.vault.open(work.secretCiphertext),
      eventId: work.eventId,
      payload: work.payload,
      at,
    });
    const retry = job.attemptsMade + 1;
    const lastTry = retry >= (job.opts.attempts ?? 1);
    const gone = result.statusCode === 410;
    let status: DeliveryStatus = result.ok ? 'delivered' : gone || lastTry ? 'failed' : 'queued';
    const delayMs =
      status === 'queued' ? retryDelayMs(this.config.webhookRetrySchedule, retry, result.retryAfterMs) : 0;
    if (status === 'queued' && delayMs < 0) status = 'failed';
    await this.repository.recordAttempt(
      deliveryId,
      {
        number: work.attempts + 1,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        responseBody: result.responseBody,
        error: result.error?.slice(0, 1000) ?? null,
        createdAt: at,
      },
      { status, nextAttemptAt: status === 'queued' ? new Date(at.getTime() + delayMs) : null },
    );
    if (result.ok) return;
    this.logger.warn(
      { deliveryId, eventId: work.eventId, statusCode: result.statusCode, error: result.error, status },
      'Webhook attempt failed',
    );
    if (gone) await job.discard();
    if (status === 'queued') throw new RetryableDeliveryError(result.error ?? 'delivery failed', delayMs);
    throw new Error(result.error ?? 'delivery failed');
  }
}
