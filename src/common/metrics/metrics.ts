import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The check-in operations whose outcomes are counted: validate, register (a visit) and confirm (an endpoint). */
export type CheckInOperation = 'validate' | 'register' | 'confirm';

/** How a webhook attempt ended: a 2xx, another answer from the receiver, or no answer at all. */
export type DeliveryAttemptOutcome = 'delivered' | 'rejected' | 'unreachable';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DELIVERY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

/**
 * The service's Prometheus metrics, in a registry of the app's own (not prom-client's global one, so that
 * several apps in one process, as in the tests, never share counters). Gauges that need a query (database
 * pool, outbox, queue) are computed when Prometheus scrapes, never on a request's path.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their latency (its _count counts requests)',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  private readonly checkInOutcomes = new Counter({
    name: 'checkin_outcomes_total',
    help: 'Check-in answers by operation (validate, register, confirm) and outcome (success or the error label)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [this.registry],
  });

  private readonly deliveryAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, rejected: a non-2xx answer, unreachable: no answer)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  private readonly deliveryDuration = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds',
    help: 'Time from sending a webhook attempt to its answer (or its failure), by outcome',
    labelNames: ['outcome'] as const,
    buckets: DELIVERY_BUCKETS,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_code: statusCode }, seconds);
  }

  countCheckIn(operation: CheckInOperation, outcome: string): void {
    this.checkInOutcomes.inc({ operation, outcome });
  }

  observeDeliveryAttempt(outcome: DeliveryAttemptOutcome, seconds: number): void {
    this.deliveryAttempts.inc({ outcome });
    this.deliveryDuration.observe({ outcome }, seconds);
  }

  /** A gauge whose value is computed when Prometheus scrapes (`collect` sets it; throwing leaves it empty). */
  gaugeAtScrape<L extends string>(
    options: { name: string; help: string; labelNames?: readonly L[] },
    collect: (gauge: Gauge<L>) => Promise<void> | void,
  ): Gauge<L> {
    return new Gauge<L>({
      ...options,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          await collect(this);
        } catch {
          // A dependency that does not answer leaves the gauge without samples; /health says why.
          this.reset();
        }
      },
    });
  }

  /** The exposition text for Prometheus. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
