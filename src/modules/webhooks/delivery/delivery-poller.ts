import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Job, JobOptions, Queue } from 'bull';
import { Clock } from '../../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { Lease, Leases } from '../../../database/leases';
import { isDatabaseUnreachable } from '../../../database/mysql-errors';
import { Transactions } from '../../../database/transactions';
import { DELIVER_JOB, DeliverJobData, WEBHOOK_QUEUE } from '../webhooks.constants';
import { DeliveriesRepository, DueAttempt } from './deliveries.repository';
import { attemptName, endpointShare, runJobId } from './delivery-policy';

const POLL_INTERVAL_MS = 250;
/** Endpoints looked at in one claim round; the next round takes the rest. */
const ENDPOINTS_PER_ROUND = 200;
const ROUNDS_PER_PASS = 50;
const REDIS_TIMEOUT_MS = 2000;
/** An attempt in the queue this long without reporting back is checked against Bull. */
const LOST_AFTER_MS = 5000;
const LOST_CHECK_EVERY_MS = 2000;
const LOST_CHECK_BATCH = 200;
/** A claim whose job Bull still holds is looked at again this long after. */
const LIVE_RECHECK_MS = 5000;
const LIVE_JOB_STATES = ['waiting', 'delayed', 'active', 'paused'];
/** The poller's lease: renewed every few seconds while its holder polls; free this long after it dies. */
const POLLER_LEASE_MS = 10_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The due-poller. The database alone says when each attempt is due (`next_attempt_at`); this claims due
 * attempts and hands them to Bull, one job per endpoint's batch (job id: endpoint and moment of the claim,
 * which each claimed row keeps as its `queued_at`), and Bull only runs them. One process polls at a time (the holder of the `webhook-poller` lease, see Lease: exclusive across
 * the nodes of a Galera cluster too), so each endpoint's share is exact over every process: at most
 * WEBHOOK_ENDPOINT_CONCURRENCY of its attempts in the queue, none while its breaker is open, one probe when the
 * breaker's wait is over. Claims use `FOR UPDATE SKIP LOCKED` under READ COMMITTED.
 *
 * Every 2 s it also looks for attempts handed over more than 5 s ago that never reported back: when Bull no
 * longer holds the job (Redis restarted empty, FLUSHALL) or holds it finished without an outcome, the attempt
 * is due again at once. So after any loss of Redis data each delivery resumes its own schedule within seconds.
 */
@Injectable()
export class DeliveryPoller implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryPoller.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private next?: Promise<void>;
  private stopped = false;
  private redisDown = false;
  private databaseDown = false;
  private lastLostCheckAt = 0;
  /** Claims whose job Bull held when last looked at, and when to look again. */
  private readonly liveClaims = new Map<string, number>();
  private readonly lease: Lease;

  constructor(
    private readonly repository: DeliveriesRepository,
    private readonly transactions: Transactions,
    leases: Leases,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverJobData>,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.lease = leases.lease('webhook-poller', POLLER_LEASE_MS);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), POLL_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.next;
    await this.running;
    if (this.lease.held) await this.lease.release().catch(() => undefined);
  }

  /**
   * A pass that starts now, or right after the one under way (which may have looked before the caller's
   * change); resolves when it is over. Calls made meanwhile share the same next pass.
   */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) {
      this.running = this.pass().finally(() => (this.running = undefined));
      return this.running;
    }
    this.next ??= this.running.then(() => {
      this.next = undefined;
      return this.tick();
    });
    return this.next;
  }

  private async pass(): Promise<void> {
    try {
      if (!this.redisReady()) return;
      for (let round = 0; round < ROUNDS_PER_PASS && !this.stopped; round++) {
        if ((await this.pollRound()) === 0) break;
      }
      const now = Date.now();
      if (
        !this.stopped &&
        !this.redisDown &&
        this.lease.held &&
        now - this.lastLostCheckAt >= LOST_CHECK_EVERY_MS
      ) {
        this.lastLostCheckAt = now;
        await this.recoverLost();
      }
      if (this.databaseDown) this.logger.log('Webhook poller reaches the database again');
      this.databaseDown = false;
    } catch (error) {
      if (!isDatabaseUnreachable(error)) {
        this.logger.error({ err: error }, 'Webhook poller pass failed');
      } else if (!this.databaseDown) {
        // One line per outage, no stack: deliveries wait in the database until it answers again.
        this.databaseDown = true;
        this.logger.warn(
          `Webhook poller cannot reach the database (${(error as Error).message}); it retries`,
        );
      }
    }
  }

  private redisReady(): boolean {
    const ready = this.queue.client.status === 'ready';
    if (!ready && !this.redisDown)
      this.logger.warn('Cannot queue webhook deliveries while Redis is away; they wait in the database');
    if (ready && this.redisDown) this.logger.log('Redis is back; webhook deliveries are queued again');
    this.redisDown = !ready;
    return ready;
  }

  /** Claims what is due, as the poller's lease holder, and hands it to Bull; how many attempts it handed over. */
  private async pollRound(): Promise<number> {
    // Another process holds the lease and polls; it will hand over what is due.
    if (!(await this.lease.hold())) return 0;
    const queuedAt = this.clock.now();
    const failing = new Set<string>();
    // The claim writes `queued_at` on every row it takes: two claims of one row through two Galera nodes conflict.
    const claimed = await this.transactions.run(
      async (manager) => {
        failing.clear();
        const attempts = await this.claim(manager, queuedAt, failing);
        if (attempts.length > 0) {
          await this.repository.markQueued(
            manager,
            attempts.map((attempt) => attempt.id),
            queuedAt,
          );
        }
        return attempts;
      },
      { isolation: 'READ COMMITTED' },
    );
    if (claimed.length === 0) return 0;
    const byEndpoint = new Map<string, DueAttempt[]>();
    for (const attempt of claimed)
      byEndpoint.set(attempt.subscriptionId, [...(byEndpoint.get(attempt.subscriptionId) ?? []), attempt]);
    const labels = await this.repository.jobLabels([...byEndpoint.keys()]);
    try {
      await withTimeout(
        this.queue.addBulk(
          [...byEndpoint].map(([subscriptionId, attempts]) =>
            this.job(
              subscriptionId,
              attempts,
              queuedAt,
              failing.has(subscriptionId),
              labels.get(subscriptionId),
            ),
          ),
        ),
        REDIS_TIMEOUT_MS,
      );
    } catch (error) {
      // Jobs that did get in run; their rows are claimed again and Bull ignores a job id it holds.
      await this.repository.unqueue(
        claimed.map((attempt) => attempt.id),
        queuedAt,
      );
      if (!this.redisDown)
        this.logger.warn({ err: error }, 'Cannot queue webhook deliveries; they wait in the database');
      this.redisDown = true;
      return 0;
    }
    return claimed.length;
  }

  /** Due attempts, each endpoint limited to its share: its concurrency less what it has in flight. */
  private async claim(
    manager: Parameters<DeliveriesRepository['claimDue']>[0],
    now: Date,
    failing: Set<string>,
  ): Promise<DueAttempt[]> {
    const endpoints = await this.repository.dueEndpoints(manager, now, ENDPOINTS_PER_ROUND);
    if (endpoints.length === 0) return [];
    const [inFlight, breakers] = await Promise.all([
      this.repository.inFlight(manager, endpoints),
      this.repository.failingEndpoints(manager, endpoints),
    ]);
    const claimed: DueAttempt[] = [];
    for (const endpoint of endpoints) {
      const breaker = breakers.get(endpoint);
      if (breaker) failing.add(endpoint);
      const share = endpointShare(
        breaker,
        this.config.webhookBreakerFailures,
        this.config.webhookEndpointConcurrency,
        now,
      );
      const room = share - (inFlight.get(endpoint) ?? 0);
      if (room > 0) claimed.push(...(await this.repository.claimDue(manager, endpoint, now, room)));
    }
    return claimed;
  }

  /** A job names its batch's attempts and, for people reading the dashboard, the place and target host. */
  private job(
    subscriptionId: string,
    attempts: DueAttempt[],
    queuedAt: Date,
    failing: boolean,
    label: { place: string; target: string } | undefined,
  ): { name: string; data: DeliverJobData; opts: JobOptions } {
    return {
      name: DELIVER_JOB,
      data: {
        ...label,
        subscriptionId,
        attempts: attempts.map((attempt) =>
          attemptName(attempt.id, attempt.redeliveries, attempt.attempts + 1),
        ),
        ...(failing && { failing: true }),
      },
      opts: {
        jobId: runJobId(subscriptionId, queuedAt),
        attempts: 1,
        removeOnComplete: 200,
        removeOnFail: 1000,
      },
    };
  }

  /**
   * Claims that Bull lost, or ran without an outcome, are due again now. A claim of the poller is its job's; a
   * claim of a runner (its next attempts) has no job of its own and is stale once the runner's lease is over.
   */
  private async recoverLost(): Promise<void> {
    const now = this.clock.now();
    const stale = await this.repository.staleClaims(
      new Date(now.getTime() - LOST_AFTER_MS),
      LOST_CHECK_BATCH,
    );
    for (const [key, until] of this.liveClaims) if (until <= now.getTime()) this.liveClaims.delete(key);
    let released = 0;
    await Promise.all(
      stale.map(async (claim) => {
        const id = runJobId(claim.subscriptionId, claim.queuedAt);
        if (this.liveClaims.has(id)) return;
        const job: Job<DeliverJobData> | null = await withTimeout(this.queue.getJob(id), REDIS_TIMEOUT_MS);
        const state = job ? await withTimeout(job.getState(), REDIS_TIMEOUT_MS) : 'missing';
        if (LIVE_JOB_STATES.includes(state)) {
          this.liveClaims.set(id, now.getTime() + LIVE_RECHECK_MS);
          return;
        }
        // A finished job keeps its id: it must go before the same claim could be queued again.
        if (job) await withTimeout(job.remove(), REDIS_TIMEOUT_MS).catch(() => undefined);
        released += await this.repository.releaseClaim(claim.subscriptionId, claim.queuedAt, now);
      }),
    );
    if (released > 0) {
      this.logger.warn({ count: released }, 'The queue lost webhook attempts; they are due again');
      void this.tick();
    }
  }
}
