import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bull';
import { KeyVault } from '../../common/crypto/key-vault';
import { runWithRequestId } from '../../common/logging/request-context';
import { DeliveryAttemptOutcome, Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DeliveryStatus } from './entities/webhook-delivery.entity';
import { retryDelayMs } from './webhook-policy';
import { WebhookSender } from './webhook-sender';
import { DeliverJobData } from './webhooks.constants';
import { DeliveryWork, WebhooksRepository } from './webhooks.repository';

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
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async attempt(job: Job<DeliverJobData>): Promise<void> {
    const work = await this.repository.findWork(job.data.deliveryId);
    // A job of a chain that a redelivery replaced, or of one that is over, sends nothing.
    if (!work || work.redeliveries !== (job.data.redeliveries ?? 0)) return;
    if (work.status !== 'pending' && work.status !== 'queued') return;
    // Every line logged for this attempt names the request that caused the event.
    return runWithRequestId(work.requestId, () => this.attemptWork(job, work));
  }

  private async attemptWork(job: Job<DeliverJobData>, work: DeliveryWork): Promise<void> {
    const { deliveryId } = job.data;
    const chain = { redeliveries: job.data.redeliveries ?? 0 };
    if (!work.url || !work.secretCiphertext) {
      await this.repository.failChain(deliveryId, chain, 'the subscription was deleted');
      await job.discard();
      throw new Error('the subscription was deleted');
    }
    const at = this.clock.now();
    // The subscription as it is now: PUT /partner/webhook/update moves retries and redeliveries along.
    const result = await this.sender.send({
      url: work.url,
      secret: this.vault.open(work.secretCiphertext),
      eventId: work.eventId,
      payload: work.payload,
      at,
    });
    const outcome: DeliveryAttemptOutcome = result.ok
      ? 'delivered'
      : result.statusCode === null
        ? 'unreachable'
        : 'rejected';
    this.metrics.observeDeliveryAttempt(outcome, result.durationMs / 1000);
    const retry = job.attemptsMade + 1;
    const lastTry = retry >= (job.opts.attempts ?? 1);
    const gone = result.statusCode === 410;
    let status: DeliveryStatus = result.ok ? 'delivered' : gone || lastTry ? 'failed' : 'queued';
    const delayMs =
      status === 'queued' ? retryDelayMs(this.config.webhookRetrySchedule, retry, result.retryAfterMs) : 0;
    if (status === 'queued' && delayMs < 0) status = 'failed';
    await this.repository.recordAttempt(
      deliveryId,
      chain,
      {
        number: work.attempts + 1,
        url: work.url,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        responseBody: result.responseBody,
        error: result.error?.slice(0, 1000) ?? null,
        createdAt: at,
      },
      { status, nextAttemptAt: status === 'queued' ? new Date(at.getTime() + delayMs) : null },
    );
    const logged = {
      deliveryId,
      eventId: work.eventId,
      attempt: work.attempts + 1,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      status,
    };
    if (result.ok) {
      this.logger.debug(logged, 'Webhook attempt delivered');
      return;
    }
    this.logger.warn({ ...logged, error: result.error }, 'Webhook attempt failed');
    if (gone) await job.discard();
    if (status === 'queued') throw new RetryableDeliveryError(result.error ?? 'delivery failed', delayMs);
    throw new Error(result.error ?? 'delivery failed');
  }

  /**
   * Bull failed a job. When it will not run it again (out of attempts, discarded, stalled too often), a chain
   * that ended without recording its outcome (an error before the HTTP call) closes the delivery as `failed`,
   * so that it never stays `queued` and can be redelivered.
   */
  async jobFailed(job: Job<DeliverJobData> | null, error: Error): Promise<void> {
    if (!job) return;
    const { deliveryId } = job.data;
    try {
      if (!(await job.isFailed())) return;
      const closed = await this.repository.failChain(
        deliveryId,
        { redeliveries: job.data.redeliveries ?? 0 },
        `the delivery job failed: ${error.message}`,
      );
      if (closed)
        this.logger.error({ deliveryId, err: error }, 'Webhook delivery job failed; delivery failed');
    } catch (failure) {
      // The relay's sweep closes the delivery later.
      this.logger.error({ deliveryId, err: failure }, 'Cannot record a failed webhook delivery job');
    }
  }
}
