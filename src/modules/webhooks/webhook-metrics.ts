import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { Metrics } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    let backlog: Promise<{ pending: number; oldestAt: Date | null }> | undefined;
    // Both outbox gauges come from one query per scrape.
    const readBacklog = () =>
      (backlog ??= this.repository.outboxBacklog(this.clock.now()).finally(() => (backlog = undefined)));
    this.metrics.gaugeAtScrape(
      {
        name: 'webhook_outbox_pending',
        help: 'Webhook attempts due and without an outcome yet, those in flight included (the outbox backlog)',
      },
      async (gauge) => gauge.set((await readBacklog()).pending),
    );
    this.metrics.gaugeAtScrape(
      {
        name: 'webhook_outbox_oldest_pending_age_seconds',
        help: 'How long the oldest due attempt has waited for its outcome (0 when none waits)',
      },
      async (gauge) => {
        const { oldestAt } = await readBacklog();
        gauge.set(oldestAt ? Math.max(0, (this.clock.now().getTime() - oldestAt.getTime()) / 1000) : 0);
      },
    );
    this.metrics.gaugeAtScrape(
      {
        name: 'webhook_endpoint_circuit_open',
        help: "1 while the circuit breaker of a subscription's endpoint holds its deliveries, 0 when closed",
        labelNames: ['subscription', 'host'] as const,
      },
      async (gauge) => {
        const circuits = await this.repository.endpointCircuits(this.config.webhookBreakerFailures);
        // Read from the database, which every process shares: deleted subscriptions drop out.
        gauge.reset();
        for (const circuit of circuits)
          gauge.set({ subscription: circuit.subscriptionId, host: circuit.host }, circuit.open ? 1 : 0);
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
