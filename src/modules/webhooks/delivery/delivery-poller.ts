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
import { attemptName, endpointShare, runHoldUntil, runJobId, runStartedAt } from './delivery-policy';

const POLL_INTERVAL_MS = 250;
/** Endpoints looked at in one round; the next round takes the rest. */
const ENDPOINTS_PER_ROUND = 200;
const ROUNDS_PER_PASS = 50;
const REDIS_TIMEOUT_MS = 2000;
/** A run whose job has not begun this long after the poller started it is checked against Bull. */
const LOST_AFTER_MS = 5000;
const LOST_CHECK_EVERY_MS = 2000;
const LOST_CHECK_BATCH = 200;
const LIVE_JOB_STATES = ['waiting', 'delayed', 'active', 'paused'];
/** The poller's lease: renewed every few seconds while its holder polls; free this long after it dies. */
const POLLER_LEASE_MS = 10_000;

/** A run the poller started: it holds its endpoint under `runId`, its Bull job's id. */
interface StartedRun {
  subscriptionId: string;
  runId: string;
  attempts: DueAttempt[];
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The due-poller. The database alone says when each attempt is due (`next_attempt_at`); this starts a run for
 * each endpoint with due attempts and no run: the run holds the endpoint in its row of
 * `webhook_endpoint_states` (`run_id`, the Bull job's id: the endpoint and the moment it was started) and its
 * job names the endpoint's first batch, and Bull only runs it. Holding an endpoint writes that row, so two
 * starts of one endpoint through two Galera nodes conflict and one is rolled back; one process polls at a time
 * (the holder of the `webhook-poller` lease, see Lease). Each endpoint's share holds over every process: one
 * run at a time (a run sends a batch only while its hold outlasts the batch's deadline and the writing of its
 * outcome), with at most WEBHOOK_ENDPOINT_CONCURRENCY of its attempts in flight, none while its breaker is
 * open, one probe when the breaker's wait is over.
 *
 * Every 2 s it also looks at runs started more than 5 s ago whose job has not begun: while Bull holds the job
 * (waiting behind others), their hold is extended; when Bull no longer holds it (Redis restarted empty,
 * FLUSHALL) or holds it finished, the endpoint is freed at once and its attempts go in the next run. A run
 * that began and stopped (its process died) frees its endpoint when its hold ends. So after any loss of Redis
 * data each delivery resumes its own schedule within seconds.
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

  /**
   * Starts a run for each endpoint with due attempts and none running, as the poller's lease holder, and hands
   * the runs to Bull; how many attempts their first batches hold.
   */
  private async pollRound(): Promise<number> {
    // Another process holds the lease and polls; it will start what is due.
    if (!(await this.lease.hold())) return 0;
    const startedAt = this.clock.now();
    const failing = new Set<string>();
    const unscheduled = new Map<string, number>();
    const runs = await this.transactions.run(
      async (manager) => {
        failing.clear();
        unscheduled.clear();
        return this.startRuns(manager, startedAt, failing, unscheduled);
      },
      { isolation: 'READ COMMITTED' },
    );
    // Said once the transaction that took them off has committed (a transaction that runs again clears again).
    for (const [subscriptionId, count] of unscheduled)
      if (count > 0)
        this.logger.warn(
          { subscriptionId, count },
          'Webhook deliveries that were over were still due; taken off the schedule',
        );
    if (runs.length === 0) return 0;
    const labels = await this.repository.jobLabels(runs.map((run) => run.subscriptionId));
    try {
      await withTimeout(
        this.queue.addBulk(
          runs.map(({ subscriptionId, runId, attempts }) =>
            this.job(
              subscriptionId,
              runId,
              attempts,
              failing.has(subscriptionId),
              labels.get(subscriptionId),
            ),
          ),
        ),
        REDIS_TIMEOUT_MS,
      );
    } catch (error) {
      // The endpoints are free again: a job that did get into Redis finds its hold gone and sends nothing.
      await Promise.all(runs.map((run) => this.repository.endRun(run.subscriptionId, run.runId)));
      if (!this.redisDown)
        this.logger.warn({ err: error }, 'Cannot queue webhook deliveries; they wait in the database');
      this.redisDown = true;
      return 0;
    }
    return runs.reduce((sum, run) => sum + run.attempts.length, 0);
  }

  /**
   * Runs of the endpoints with due attempts, each holding its endpoint, with a first batch of up to its share;
   * `unscheduled` gets how many rows over but still due each endpoint had taken off the schedule.
   */
  private async startRuns(
    manager: Parameters<DeliveriesRepository['claimDue']>[0],
    now: Date,
    failing: Set<string>,
    unscheduled: Map<string, number>,
  ): Promise<StartedRun[]> {
    const endpoints = await this.repository.dueEndpoints(manager, now, ENDPOINTS_PER_ROUND);
    if (endpoints.length === 0) return [];
    const breakers = await this.repository.failingEndpoints(manager, endpoints);
    // While the job waits in Bull, the lost-run check extends the hold.
    const until = runHoldUntil(now, this.config.webhookTimeoutMs);
    const runs: StartedRun[] = [];
    for (const endpoint of endpoints) {
      const breaker = breakers.get(endpoint);
      if (breaker) failing.add(endpoint);
      const share = endpointShare(
        breaker,
        this.config.webhookBreakerFailures,
        this.config.webhookEndpointConcurrency,
        now,
      );
      if (share === 0) continue;
      const runId = runJobId(endpoint, now);
      if (!(await this.repository.startRun(manager, endpoint, runId, until, now))) continue;
      const { attempts, over } = await this.repository.claimDue(manager, endpoint, now, share);
      // Rows over but still due: left so, they would have the endpoint listed (and a run started) at every round.
      if (over > 0)
        unscheduled.set(endpoint, await this.repository.unscheduleFinished(manager, endpoint, now));
      if (attempts.length > 0) runs.push({ subscriptionId: endpoint, runId, attempts });
      // A run that finished them meanwhile: nothing to start.
      else await this.repository.endRun(endpoint, runId, manager);
    }
    return runs;
  }

  /** A job names its first batch's attempts and, for people reading the dashboard, the place and target host. */
  private job(
    subscriptionId: string,
    runId: string,
    attempts: DueAttempt[],
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
        jobId: runId,
        attempts: 1,
        removeOnComplete: 200,
        removeOnFail: 1000,
      },
    };
  }

  /**
   * Runs whose job has not begun: while Bull holds the job their hold is extended; a job that Bull lost, or
   * holds finished, frees its endpoint now. A run that began renews its own hold, and its endpoint is free when
   * the hold ends.
   */
  private async recoverLost(): Promise<void> {
    const now = this.clock.now();
    const runs = await this.repository.unstartedRuns(now, LOST_CHECK_BATCH);
    let freed = 0;
    await Promise.all(
      runs.map(async ({ subscriptionId, runId }) => {
        if (runStartedAt(runId) > now.getTime() - LOST_AFTER_MS) return;
        const job: Job<DeliverJobData> | null = await withTimeout(this.queue.getJob(runId), REDIS_TIMEOUT_MS);
        const state = job ? await withTimeout(job.getState(), REDIS_TIMEOUT_MS) : 'missing';
        if (LIVE_JOB_STATES.includes(state)) {
          await this.repository.extendRun(
            subscriptionId,
            runId,
            runHoldUntil(now, this.config.webhookTimeoutMs),
          );
          return;
        }
        // A finished job keeps its id: it must go before the same run could be queued again.
        if (job) await withTimeout(job.remove(), REDIS_TIMEOUT_MS).catch(() => undefined);
        if (await this.repository.endRun(subscriptionId, runId)) freed++;
      }),
    );
    if (freed > 0) {
      this.logger.warn({ count: freed }, 'The queue lost webhook runs; their attempts are due again');
      void this.tick();
    }
  }
}
