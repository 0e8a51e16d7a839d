import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { BACKOFF_STRATEGY, DELIVER_JOB, DeliverJobData, WEBHOOK_QUEUE } from './webhooks.constants';
import { deliveryJobId } from './webhook-policy';
import { WebhooksRepository } from './webhooks.repository';

const RELAY_INTERVAL_MS = 500;
const BATCH = 100;
const ADD_TIMEOUT_MS = 2000;
/** A queued delivery with no attempt, or a retry, this late is checked against Bull: Redis may have lost it. */
const LOST_AFTER_MS = 5 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 1000;
const LIVE_JOB_STATES = ['waiting', 'delayed', 'active', 'paused'];

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Hands outbox rows to the Bull queue. Rows are claimed with SELECT … FOR UPDATE SKIP LOCKED, so any number
 * of processes relay at once without taking the same row; the job id names the delivery and its redelivery
 * count, so adding a job twice is harmless. While Redis is down rows stay pending.
 *
 * Once a minute it also looks for queued deliveries that Bull no longer carries: a job never attempted is
 * added again (same job id, so never a second chain), a chain whose job is gone or over without an outcome
 * closes the delivery as `failed`, which a redelivery can pick up.
 */
@Injectable()
export class WebhookRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private redisDown = false;
  private lastSweepAt = 0;

  constructor(
    private readonly repository: WebhooksRepository,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverJobData>,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), RELAY_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Relays what is pending now; resolves when this pass is over. */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.relayAll()
      .catch((error: unknown) => this.logger.error({ err: error }, 'Webhook relay pass failed'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async relayAll(): Promise<void> {
    while (!this.stopped && (await this.relayBatch()) === BATCH);
    const now = this.clock.now().getTime();
    const sinceSweep = now - this.lastSweepAt;
    // A clock that went back (tests move it) sweeps too.
    if (this.stopped || this.redisDown || (sinceSweep >= 0 && sinceSweep < SWEEP_EVERY_MS)) return;
    this.lastSweepAt = now;
    await this.sweep();
  }

  /** A job names its delivery and chain, and, for people reading the dashboard, the place and target host. */
  private addJob(
    delivery: { id: string; redeliveries: number },
    label: { place: string; target: string } | undefined,
  ) {
    return this.queue.add(
      DELIVER_JOB,
      { deliveryId: delivery.id, redeliveries: delivery.redeliveries, ...label },
      {
        jobId: deliveryJobId(delivery.id, delivery.redeliveries),
        attempts: this.config.webhookRetrySchedule.length + 1,
        backoff: { type: BACKOFF_STRATEGY },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      },
    );
  }

  private async relayBatch(): Promise<number> {
    try {
      // READ COMMITTED: the claim then locks only the rows it takes, no gap. Under REPEATABLE READ it also
      // locked the gap after the last pending row, where every register's outbox insert goes, so registers
      // waited for this transaction's Redis round trips.
      const count = await this.repository.dataSource.transaction('READ COMMITTED', async (manager) => {
        const claimed = await this.repository.claimPending(manager, BATCH);
        if (claimed.length === 0) return 0;
        const labels = await this.repository.jobLabels(
          manager,
          claimed.map((delivery) => delivery.id),
        );
        await withTimeout(
          Promise.all(claimed.map((delivery) => this.addJob(delivery, labels.get(delivery.id)))),
          ADD_TIMEOUT_MS,
        );
        await this.repository.markQueued(
          manager,
          claimed.map((delivery) => delivery.id),
          this.clock.now(),
        );
        return claimed.length;
      });
      if (this.redisDown) this.logger.log('Redis is back; webhook deliveries are queued again');
      this.redisDown = false;
      return count;
    } catch (error) {
      if (!this.redisDown)
        this.logger.warn({ err: error }, 'Cannot queue webhook deliveries; they stay pending');
      this.redisDown = true;
      return 0;
    }
  }

  private async sweep(): Promise<void> {
    const now = this.clock.now();
    const stale = await this.repository.staleQueued(new Date(now.getTime() - LOST_AFTER_MS), BATCH);
    const confirmed: string[] = [];
    const labels = await this.repository.jobLabels(
      this.repository.dataSource,
      stale.map((delivery) => delivery.id),
    );
    for (const delivery of stale) {
      const job = await withTimeout(
        this.queue.getJob(deliveryJobId(delivery.id, delivery.redeliveries)),
        ADD_TIMEOUT_MS,
      );
      const state = job ? await withTimeout(job.getState(), ADD_TIMEOUT_MS) : 'lost';
      const neverAttempted = delivery.nextAttemptAt === null;
      if (LIVE_JOB_STATES.includes(state)) {
        // Only slow: look again in LOST_AFTER_MS.
        if (neverAttempted) confirmed.push(delivery.id);
      } else if (state === 'lost' && neverAttempted) {
        await withTimeout(this.addJob(delivery, labels.get(delivery.id)), ADD_TIMEOUT_MS);
        confirmed.push(delivery.id);
        this.logger.warn({ deliveryId: delivery.id }, 'Redis lost a webhook job; queued it again');
      } else {
        const closed = await this.repository.failChain(
          delivery.id,
          delivery,
          state === 'lost'
            ? 'the queue lost the scheduled retry'
            : `the queue job is ${state} without an outcome`,
        );
        if (closed)
          this.logger.warn({ deliveryId: delivery.id, state }, 'Webhook delivery lost by the queue; failed');
      }
    }
    await this.repository.confirmQueued(confirmed, now);
  }
}
