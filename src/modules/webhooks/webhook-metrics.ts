import { InjectQueue } from '@nestjs/bull';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { DeliverJobData, WEBHOOK_QUEUE } from './webhooks.constants';
import { WebhooksRepository } from './webhooks.repository';

const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'paused'] as const;
/** A scrape never waits on Redis longer than this; the gauge stays empty when Redis does not answer. */
const QUEUE_TIMEOUT_MS = 1000;

/** The outbox's backlog and the delivery queue's jobs, read when Prometheus scrapes. */
@Injectable()
export class WebhookMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly repository: WebhooksRepository,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverJobData>,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    let backlog: Promise<{ pending: number; oldestAt: Date | null }> | undefined;
    // Both outbox gauges come from one query per scrape.
    const readBacklog = () =>
      (backlog ??= this.repository.outboxBacklog().finally(() => (backlog = undefined)));
    this.metrics.gaugeAtScrape(
      {
        name: 'webhook_outbox_pending',
        help: 'Webhook deliveries written but not yet handed to the queue (pending in the outbox)',
      },
      async (gauge) => gauge.set((await readBacklog()).pending),
    );
    this.metrics.gaugeAtScrape(
      {
        name: 'webhook_outbox_oldest_pending_age_seconds',
        help: 'Age of the oldest pending outbox row (0 when none is pending)',
      },
      async (gauge) => {
        const { oldestAt } = await readBacklog();
        gauge.set(oldestAt ? Math.max(0, (this.clock.now().getTime() - oldestAt.getTime()) / 1000) : 0);
      },
    );
    this.metrics.gaugeAtScrape(
      {
        name: 'webhook_queue_jobs',
        help: 'Webhook delivery jobs in the queue by state',
        labelNames: ['state'] as const,
      },
      async (gauge) => {
        const counts = await this.jobCounts();
        for (const state of JOB_STATES) gauge.set({ state }, counts[state] ?? 0);
      },
    );
  }

  private jobCounts(): Promise<Partial<Record<(typeof JOB_STATES)[number], number>>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Redis did not answer')), QUEUE_TIMEOUT_MS);
    });
    return Promise.race([this.queue.getJobCounts(), timeout]).finally(() => clearTimeout(timer));
  }
}
