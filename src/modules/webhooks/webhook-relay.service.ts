import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bull';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { BACKOFF_STRATEGY, DELIVER_JOB, DeliverJobData, WEBHOOK_QUEUE } from './webhooks.constants';
import { WebhooksRepository } from './webhooks.repository';

const RELAY_INTERVAL_MS = 500;
const BATCH = 100;
const ADD_TIMEOUT_MS = 2000;
/** A queued delivery not attempted for this long is taken to be lost by Redis and queued again. */
const LOST_AFTER_MS = 5 * 60 * 1000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Hands outbox rows to the Bull queue. Rows are claimed with SELECT … FOR UPDATE SKIP LOCKED, so any number
 * of processes relay at once without taking the same row; the job id is the delivery id (with the attempt
 * count after a redelivery), so adding a job twice is harmless. While Redis is down rows stay pending.
 */
@Injectable()
export class WebhookRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private redisDown = false;

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
  }

  private async relayBatch(): Promise<number> {
    const attempts = this.config.webhookRetrySchedule.length + 1;
    try {
      const count = await this.repository.dataSource.transaction(async (manager) => {
        const now = this.clock.now();
        const claimed = await this.repository.claimDeliveries(
          manager,
          now,
          new Date(now.getTime() - LOST_AFTER_MS),
          BATCH,
        );
        if (claimed.length === 0) return 0;
        await withTimeout(
          Promise.all(
            claimed.map((delivery) =>
              this.queue.add(
                DELIVER_JOB,
                { deliveryId: delivery.id },
                {
                  jobId: delivery.attempts === 0 ? delivery.id : `${delivery.id}.${delivery.attempts}`,
                  attempts,
                  backoff: { type: BACKOFF_STRATEGY },
                  removeOnComplete: 1000,
                  removeOnFail: 5000,
                },
              ),
            ),
          ),
          ADD_TIMEOUT_MS,
        );
        await this.repository.markQueued(
          manager,
          claimed.map((delivery) => delivery.id),
          now,
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
}
