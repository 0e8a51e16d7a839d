import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { KeyVault } from '../../common/crypto/key-vault';
import { runWithRequestId } from '../../common/logging/request-context';
import { DeliveryAttemptOutcome, Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { groupCommit } from '../../database/group-commit';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DeliveryStatus } from './entities/webhook-delivery.entity';
import { retryDelayMs } from './webhook-policy';
import { WebhookRelay } from './webhook-relay.service';
import { SendResult, WebhookSender } from './webhook-sender';
import { DeliverJobData } from './webhooks.constants';
import {
  AttemptRecord,
  AttemptRecorded,
  BreakerUpdate,
  DeliveryWork,
  WebhooksRepository,
} from './webhooks.repository';

/**
 * Up to four batches in flight at once, but another starts beside one in flight only when eight calls wait:
 * a trickle (deliveries keeping up with check-ins) goes out together in few transactions, which keeps the
 * statements per delivery low; a burst (a backlog to one endpoint) gets more transactions at once, so an
 * outcome waits less for those before it (bench:webhooks: one at a time about 1,900 deliveries/s, four
 * 2,400).
 */
const BATCHING = { maxBatchSize: 100, parallel: 4, startAnotherAt: 8 };

/** A worker's own next attempt is its own for the attempt deadline plus this. */
const LEASE_MARGIN_MS = 5000;

/**
 * One attempt of one delivery: check that the row still waits for exactly this attempt, send, then record
 * the attempt, the delivery's next state (and when its next attempt is due) and the endpoint's breaker in one
 * transaction. Bull never retries a job: the next attempt is a new job that the poller hands over when the
 * row says it is due. An outcome that cannot be written is written again (see Transactions), never sent again.
 *
 * The workers of a process share their database trips: reads of work made while one is under way go together
 * in the next, and so do outcomes, in one transaction (group commit). So a busy endpoint costs a few
 * statements per batch of attempts instead of several per attempt.
 */
@Injectable()
export class WebhookDeliveryService implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private stopping = false;
  private readonly work = groupCommit<string, DeliveryWork | undefined>(async (ids) => {
    const found = await this.repository.findWork(ids);
    return ids.map((id) => found.get(id));
  }, BATCHING);
  private readonly outcomes = groupCommit<AttemptRecord, AttemptRecorded>(
    (records) => this.recordTogether(records),
    BATCHING,
  );

  constructor(
    private readonly repository: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly vault: KeyVault,
    private readonly relay: WebhookRelay,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleDestroy(): void {
    this.stopping = true;
  }

  /**
   * Runs the job's attempt; after a success, the worker goes on with the endpoint's next due attempt (if
   * any), so that a busy endpoint keeps its share without a trip through the poller and the queue for each.
   */
  async attempt(job: DeliverJobData): Promise<void> {
    if (job.attempt === undefined) return;
    const first = await this.work.load(job.deliveryId);
    // A copy of an attempt that was made already, or of a chain that a redelivery replaced, sends nothing.
    let work = first && this.waitsFor(first, job.redeliveries ?? 0, job.attempt) ? first : undefined;
    let failing = job.failing === true;
    while (work) {
      const current = work;
      // Every line logged for this attempt names the request that caused the event.
      work = await runWithRequestId(current.requestId, () => this.send(current, failing));
      failing = false;
    }
    void this.relay.tick();
  }

  private async send(work: DeliveryWork, failing: boolean): Promise<DeliveryWork | undefined> {
    const deliveryId = work.id;
    const chain = { redeliveries: work.redeliveries, attempts: work.attempts };
    if (!work.url || !work.secretCiphertext) {
      await this.repository.failChain(deliveryId, chain, 'the subscription was deleted');
      return undefined;
    }
    let secret: string;
    try {
      secret = this.vault.open(work.secretCiphertext);
    } catch (error) {
      const closed = await this.repository.failChain(
        deliveryId,
        chain,
        `the delivery job failed: ${(error as Error).message}`,
      );
      if (closed) this.logger.error({ deliveryId, err: error }, 'Webhook delivery cannot be sent; failed');
      return undefined;
    }
    const at = this.clock.now();
    // The subscription as it is now: PUT /partner/webhook/update moves retries and redeliveries along.
    const result = await this.sender.send({
      url: work.url,
      secret,
      eventId: work.eventId,
      payload: work.payload,
      at,
      format: work.format ?? undefined,
    });
    if (result.abandoned) {
      // The process is stopping: the attempt is due again now, for this or another process to make.
      await this.repository.releaseLost(
        {
          id: work.id,
          subscriptionId: work.subscriptionId,
          redeliveries: work.redeliveries,
          attempts: work.attempts,
        },
        at,
      );
      return undefined;
    }
    return this.record(work, failing, result, at);
  }

  private waitsFor(work: DeliveryWork, redeliveries: number, attempt: number): boolean {
    return (
      work.inQueue &&
      work.redeliveries === redeliveries &&
      work.attempts === attempt - 1 &&
      (work.status === 'pending' || work.status === 'queued')
    );
  }

  private async record(
    work: DeliveryWork,
    failing: boolean,
    result: SendResult,
    at: Date,
  ): Promise<DeliveryWork | undefined> {
    const outcome: DeliveryAttemptOutcome = result.ok
      ? 'delivered'
      : result.statusCode === null
        ? 'unreachable'
        : 'rejected';
    this.metrics.observeDeliveryAttempt(outcome, result.durationMs / 1000);
    const number = work.attempts + 1;
    const schedule = this.config.webhookRetrySchedule;
    const gone = result.statusCode === 410;
    const lastTry = number >= schedule.length + 1;
    let status: DeliveryStatus = result.ok ? 'delivered' : gone || lastTry ? 'failed' : 'queued';
    const delayMs = status === 'queued' ? retryDelayMs(schedule, number, result.retryAfterMs) : 0;
    if (status === 'queued' && delayMs < 0) status = 'failed';
    const breaker: BreakerUpdate = result.ok
      ? { kind: 'success', subscriptionId: work.subscriptionId, mayBeFailing: failing }
      : {
          kind: 'failure',
          subscriptionId: work.subscriptionId,
          error: result.error ?? 'delivery failed',
          threshold: this.config.webhookBreakerFailures,
          openSeconds: this.config.webhookBreakerOpenSeconds,
        };
    const recorded = await this.outcomes.load({
      deliveryId: work.id,
      chain: { redeliveries: work.redeliveries, attempts: work.attempts },
      attempt: {
        number,
        url: work.url as string,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        responseBody: result.responseBody,
        error: result.error?.slice(0, 1000) ?? null,
        createdAt: at,
      },
      outcome: { status, nextAttemptAt: status === 'queued' ? new Date(at.getTime() + delayMs) : null },
      breaker,
      claimNext: !this.stopping,
    });
    const logged = {
      deliveryId: work.id,
      eventId: work.eventId,
      attempt: number,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      status,
    };
    if (result.ok) this.logger.debug(logged, 'Webhook attempt delivered');
    else this.logger.warn({ ...logged, error: result.error }, 'Webhook attempt failed');
    if (recorded.breaker?.justOpened)
      this.logger.warn(
        {
          subscriptionId: work.subscriptionId,
          url: work.url,
          failures: recorded.breaker.failures,
          openUntil: recorded.breaker.openUntil,
          lastError: recorded.breaker.lastError,
        },
        'Webhook endpoint keeps failing: circuit breaker open, its deliveries wait',
      );
    if (recorded.closed)
      this.logger.log(
        { subscriptionId: work.subscriptionId, url: work.url },
        'Webhook endpoint answers again: circuit breaker closed',
      );
    return recorded.next;
  }

  /**
   * Outcomes reported together, in one transaction. When it fails for a reason other than a deadlock or a lock
   * wait, each is written alone, so that one outcome that cannot be written does not fail the others.
   */
  private async recordTogether(records: readonly AttemptRecord[]): Promise<(AttemptRecorded | Error)[]> {
    const write = (batch: readonly AttemptRecord[]) => {
      const now = this.clock.now();
      // A transaction that loses a conflict runs again (Transactions): the receiver has the event, it must not
      // get it twice.
      return this.repository.recordAttempts(batch, { now, leaseUntil: this.leaseUntil(now) });
    };
    try {
      return await write(records);
    } catch (error) {
      if (records.length === 1) return [error as Error];
      return Promise.all(
        records.map((record) =>
          write([record]).then(
            ([recorded]) => recorded,
            (alone: Error) => alone,
          ),
        ),
      );
    }
  }

  /** Past the attempt's deadline, with room for writing its outcome. */
  private leaseUntil(now: Date): Date {
    return new Date(now.getTime() + this.config.webhookTimeoutMs + LEASE_MARGIN_MS);
  }
}
