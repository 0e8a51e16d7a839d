import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Logger as Pino } from 'pino';
import { KeyVault } from '../../../common/crypto/key-vault';
import { ROOT_LOGGER } from '../../../common/logging/logging.module';
import { DeliveryAttemptOutcome, Metrics } from '../../../common/metrics/metrics';
import { Clock } from '../../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { groupCommit } from '../../../database/group-commit';
import { isDatabaseUnreachable } from '../../../database/mysql-errors';
import { DeliverJobData } from '../webhooks.constants';
import { DeliveriesRepository, DeliveryWork } from './deliveries.repository';
import { DeliveryPoller } from './delivery-poller';
import {
  adoptedRunId,
  failedAttemptSummary,
  maySendBatch,
  moveAfterAttempt,
  parseAttemptName,
  runHoldUntil,
} from './delivery-policy';
import { BatchRecorded, BatchReport, DeliveryRecorder, ReportedAttempt } from './delivery-recorder';
import { SendResult, WebhookSender } from './webhook-sender';

/**
 * Up to four transactions in flight at once, but another starts beside one in flight only when eight batches
 * wait: batches of several runs that end at about the same time are written together.
 */
const BATCHING = { maxBatchSize: 32, parallel: 4, startAnotherAt: 8 };

/**
 * A batch smaller than the endpoint's share takes at least this long before its outcomes are written with the
 * read of the next one, so that the next batch finds the events that came meanwhile: under a steady stream
 * the batches grow (fewer transactions per delivery, as the reference relay's 20 ms pause does), at the cost
 * of up to this much lag.
 */
const FILL_WINDOW_MS = 20;
/**
 * A batch's outcomes that could not be written are tried again after a pause that doubles from the first to
 * the longest, while the run's hold outlasts the pause and one more write (OUTCOME_WRITE_MS).
 */
const OUTCOME_RETRY_FIRST_MS = 250;
const OUTCOME_RETRY_LONGEST_MS = 2000;
const OUTCOME_WRITE_MS = 2000;
/** Subscriptions' opened secrets kept in memory, by sealed value. */
const OPENED_SECRETS_KEPT = 10_000;

/** A job whose attempt failed: its reason is what /admin/queues shows. */
export class AttemptFailedError extends Error {
  override readonly name = 'AttemptFailedError';
  constructor(summary: string) {
    super(summary);
    // Bull shows the stack beside the reason: the summary says it all, a stack of Bull's internals nothing.
    this.stack = `${this.name}: ${summary}`;
  }
}

/** What a run did, as its Bull job's return value. */
export interface RunSummary {
  delivered: number;
  failed: number;
  batches: number;
}

/**
 * Runs one endpoint's attempts: the run takes the endpoint over from the job that names it (one run at a time
 * holds an endpoint; a copy of the job, or a job that began after its hold ended, sends nothing), checks that
 * each row still waits for exactly that attempt, sends them at once over kept-alive connections, then writes
 * every outcome together (DeliveryRecorder). While the endpoint answers, the same transaction renews the run's
 * hold and reads its next due attempts (up to its share, WEBHOOK_ENDPOINT_CONCURRENCY) and the run goes on with
 * them, without a trip through the poller and the queue; it ends when nothing of the endpoint waits, or after a
 * failure (the breaker and the retry schedule decide what comes next), and frees the endpoint. A run with a
 * failure ends as a failed job whose reason names the gym, the host, the answer and the next attempt (the
 * outcome is in the database first; Bull never retries).
 */
@Injectable()
export class DeliveryRunner implements OnModuleDestroy {
  private readonly logger = new Logger(DeliveryRunner.name);
  private stopping = false;
  private readonly openedSecrets = new Map<string, string>();
  private readonly outcomes = groupCommit<BatchReport, BatchRecorded>(
    (reports) => this.recordTogether(reports),
    BATCHING,
  );

  constructor(
    private readonly repository: DeliveriesRepository,
    private readonly recorder: DeliveryRecorder,
    private readonly sender: WebhookSender,
    private readonly vault: KeyVault,
    private readonly poller: DeliveryPoller,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly rootLogger: Pino,
  ) {}

  onModuleDestroy(): void {
    this.stopping = true;
  }

  async run(job: DeliverJobData, jobId: string): Promise<RunSummary> {
    const summary: RunSummary = { delivered: 0, failed: 0, batches: 0 };
    const { subscriptionId } = job;
    // A job of an earlier layout holds no endpoint: the poller starts a run for its attempts.
    if (!subscriptionId || !job.attempts) return summary;
    const runId = adoptedRunId(jobId, randomBytes(6).toString('hex'));
    const now = this.clock.now();
    let heldUntil: Date | null = runHoldUntil(now, this.config.webhookTimeoutMs);
    if (!(await this.repository.adoptRun(subscriptionId, jobId, runId, heldUntil, now))) return summary;
    let failure: string | undefined;
    try {
      const named = attemptsOf(job);
      const found = await this.repository.findWork(named.map((each) => each.deliveryId));
      // An attempt that was made already, or of a chain that a redelivery replaced, is not sent.
      let batch = named.flatMap((each) => {
        const work = found.get(each.deliveryId);
        const waits =
          work?.subscriptionId === subscriptionId &&
          work.redeliveries === each.redeliveries &&
          work.attempts === each.attempt - 1 &&
          (work.status === 'pending' || work.status === 'queued');
        return waits ? [work] : [];
      });
      let failing = job.failing === true;
      // A batch goes only while the run's hold outlasts its attempts' deadline and the writing of its outcome.
      while (
        batch.length > 0 &&
        heldUntil &&
        maySendBatch(this.clock.now(), this.config.webhookTimeoutMs, heldUntil)
      ) {
        const done = await this.runBatch(batch, failing, job, runId, heldUntil);
        summary.batches++;
        summary.delivered += done.delivered;
        summary.failed += done.failed;
        failure = done.failure;
        batch = done.next;
        heldUntil = done.heldUntil;
        failing = false;
      }
    } finally {
      // Free at once for the poller's next run (or, should this fail, when the hold ends); a run that lost its
      // hold changes nothing.
      await this.repository
        .endRun(subscriptionId, runId)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, subscriptionId }, 'Webhook run could not free its endpoint'),
        );
      void this.poller.tick();
    }
    if (failure) throw new AttemptFailedError(failure);
    return summary;
  }

  /**
   * A subscription's secret, opened once per sealed value: opened for every batch, it took 4 % of the process's
   * CPU profile while delivering. A new secret is a new sealed value, so nothing stale is kept; the cache is emptied
   * when it reaches OPENED_SECRETS_KEPT.
   */
  private secret(ciphertext: string): string {
    let secret = this.openedSecrets.get(ciphertext);
    if (secret === undefined) {
      secret = this.vault.open(ciphertext);
      if (this.openedSecrets.size >= OPENED_SECRETS_KEPT) this.openedSecrets.clear();
      this.openedSecrets.set(ciphertext, secret);
    }
    return secret;
  }

  private async runBatch(
    batch: DeliveryWork[],
    failing: boolean,
    job: Pick<DeliverJobData, 'place' | 'target'>,
    runId: string,
    heldUntil: Date,
  ): Promise<{
    next: DeliveryWork[];
    heldUntil: Date | null;
    delivered: number;
    failed: number;
    failure?: string;
  }> {
    const begun = Date.now();
    const sendable: { work: DeliveryWork; url: string; secret: string }[] = [];
    for (const work of batch) {
      if (!work.url || !work.secretCiphertext) {
        await this.repository.failChain(work, 'the subscription was deleted');
        continue;
      }
      try {
        const secret = this.secret(work.secretCiphertext);
        sendable.push({ work, url: work.url, secret });
      } catch (error) {
        const closed = await this.repository.failChain(
          work,
          `the delivery job failed: ${(error as Error).message}`,
        );
        if (closed)
          this.logger.error(
            { ...(work.requestId && { requestId: work.requestId }), deliveryId: work.id, err: error },
            'Webhook delivery cannot be sent; failed',
          );
      }
    }
    // Nothing was sent: the run ends, and the next one reads what is due afresh.
    if (sendable.length === 0) return { next: [], heldUntil: null, delivered: 0, failed: 0 };
    // The subscription as it is now: PUT /partner/webhook/update moves retries and redeliveries along.
    const answered: { work: DeliveryWork; url: string; result: SendResult }[] = [];
    // The batch's requests all start now, in this tick: one time for each of its attempts (and for the
    // deliveries' last attempt), so that the outcome's UPDATE sets it once for the whole batch.
    const at = this.clock.now();
    await Promise.all(
      sendable.map(async ({ work, url, secret }) => {
        const result = await this.sender.send({
          url,
          secret,
          eventId: work.eventId,
          payload: work.payload,
          at,
          format: work.format ?? undefined,
        });
        answered.push({ work, url, result });
      }),
    );
    // Attempts abandoned because the process is stopping stay due: the run ends and frees the endpoint for this
    // or another process.
    const made = answered.filter(({ result }) => !result.abandoned);
    if (made.length === 0) return { next: [], heldUntil: null, delivered: 0, failed: 0 };
    const schedule = this.config.webhookRetrySchedule;
    const attempts: ReportedAttempt[] = made.map(({ work, url, result }) => {
      const number = work.attempts + 1;
      // A retry waits its delay from when the attempt ended (a timed-out one took WEBHOOK_TIMEOUT_MS).
      const move = moveAfterAttempt(result, number, schedule, new Date(at.getTime() + result.durationMs));
      this.metrics.observeDeliveryAttempt(outcomeOf(result), result.durationMs / 1000);
      return {
        deliveryId: work.id,
        redeliveries: work.redeliveries,
        attempts: work.attempts,
        ok: result.ok,
        status: move.status,
        nextAttemptAt: move.nextAttemptAt,
        attempt: {
          number,
          url,
          statusCode: result.statusCode,
          durationMs: result.durationMs,
          responseBody: result.responseBody,
          error: result.error?.slice(0, 1000) ?? null,
          createdAt: at,
        },
      };
    });
    const anyFailure = attempts.some((attempt) => !attempt.ok);
    const subscriptionId = batch[0].subscriptionId;
    const fillFor = begun + FILL_WINDOW_MS - Date.now();
    if (!anyFailure && !this.stopping && batch.length < this.config.webhookEndpointConcurrency && fillFor > 0)
      await new Promise((resolve) => setTimeout(resolve, fillFor));
    const recorded = await this.recordOutcomes(
      {
        subscriptionId,
        runId,
        attempts,
        mayBeFailing: failing,
        breakerThreshold: this.config.webhookBreakerFailures,
        breakerOpenSeconds: this.config.webhookBreakerOpenSeconds,
        claimNext: anyFailure || this.stopping ? 0 : this.config.webhookEndpointConcurrency,
      },
      heldUntil,
    );
    const failures = made.flatMap((each, index) =>
      !each.result.ok && recorded.recorded[index] ? [{ ...each, move: attempts[index] }] : [],
    );
    // A delivered attempt's line is a debug one: at the production level nothing of it is built.
    const logDelivered = this.rootLogger.isLevelEnabled('debug');
    made.forEach(({ work, result }, index) => {
      if (!recorded.recorded[index] || (result.ok && !logDelivered)) return;
      // Every line logged for an attempt names the request that caused the event.
      const logged = {
        ...(work.requestId && { requestId: work.requestId }),
        deliveryId: work.id,
        eventId: work.eventId,
        attempt: attempts[index].attempt.number,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        status: attempts[index].status,
      };
      if (result.ok) this.logger.debug(logged, 'Webhook attempt delivered');
      else this.logger.warn({ ...logged, error: result.error }, 'Webhook attempt failed');
    });
    const url = made[0].url;
    if (recorded.breaker?.justOpened)
      this.logger.warn(
        {
          subscriptionId,
          url,
          failures: recorded.breaker.failures,
          openUntil: recorded.breaker.openUntil,
          lastError: recorded.breaker.lastError,
        },
        'Webhook endpoint keeps failing: circuit breaker open, its deliveries wait',
      );
    if (recorded.closed)
      this.logger.log({ subscriptionId, url }, 'Webhook endpoint answers again: circuit breaker closed');
    const delivered = attempts.filter((attempt, index) => attempt.ok && recorded.recorded[index]).length;
    if (failures.length === 0)
      return { next: recorded.next, heldUntil: recorded.heldUntil, delivered, failed: 0 };
    const [first] = failures;
    const openUntil = recorded.breaker?.openUntil;
    return {
      next: recorded.next,
      heldUntil: recorded.heldUntil,
      delivered,
      failed: failures.length,
      failure: failedAttemptSummary(
        {
          place: job.place,
          target: job.target,
          deliveryId: first.work.id,
          attempt: first.move.attempt.number,
          error: first.result.error ?? 'delivery failed',
          responseBody: first.result.responseBody,
          nextAttemptAt: first.move.nextAttemptAt,
          breakerOpenUntil: openUntil && openUntil > at ? openUntil : null,
        },
        failures.length - 1,
      ),
    };
  }

  /**
   * A batch's outcomes, written while the run holds its endpoint. A write that fails because the database cannot
   * be reached (restarting or failing over, a connection lost) is tried again after a pause, as long as the hold
   * outlasts the pause and one more write: the receivers have their events, and written late their attempts are
   * still logged once and not sent again. A try after the first is fenced (DeliveryRecorder): it first renews the
   * hold, which only this run's id can do, and that row's lock keeps the poller from handing the endpoint to
   * another run until it commits; a run that lost its hold meanwhile writes nothing, the next run having the
   * attempts. A write that committed before its answer was lost is found out by the next try, whose attempts are
   * then no longer awaited: nothing is logged twice. Any other error, a hold too short for another try, or the
   * process stopping ends the run; its attempts go again in the next one.
   */
  private async recordOutcomes(report: BatchReport, heldUntil: Date): Promise<BatchRecorded> {
    for (
      let pause = OUTCOME_RETRY_FIRST_MS, fenced = false;
      ;
      pause = Math.min(pause * 2, OUTCOME_RETRY_LONGEST_MS)
    ) {
      try {
        return await this.outcomes.load(fenced ? { ...report, fenced } : report);
      } catch (error) {
        const late = this.clock.now().getTime() + pause + OUTCOME_WRITE_MS > heldUntil.getTime();
        if (this.stopping || late || !isDatabaseUnreachable(error)) throw error;
        this.logger.warn(
          {
            err: error,
            subscriptionId: report.subscriptionId,
            attempts: report.attempts.length,
            retryInMs: pause,
          },
          'Webhook outcomes could not be written: the database cannot be reached; trying again',
        );
        await new Promise((resolve) => setTimeout(resolve, pause));
        fenced = true;
      }
    }
  }

  /**
   * Batches reported together, in one transaction. When it fails for a reason other than a conflict (which
   * Transactions runs again) or an unreachable database (which fails them all alike), each is written alone, so
   * that one that cannot be written does not fail the others.
   */
  private async recordTogether(reports: readonly BatchReport[]): Promise<(BatchRecorded | Error)[]> {
    const write = (some: readonly BatchReport[]) => {
      const now = this.clock.now();
      return this.recorder.record(some, { now, leaseUntil: runHoldUntil(now, this.config.webhookTimeoutMs) });
    };
    try {
      return await write(reports);
    } catch (error) {
      if (reports.length === 1 || isDatabaseUnreachable(error)) return reports.map(() => error as Error);
      return Promise.all(
        reports.map((report) =>
          write([report]).then(
            ([recorded]) => recorded,
            (alone: Error) => alone,
          ),
        ),
      );
    }
  }
}

function outcomeOf(result: SendResult): DeliveryAttemptOutcome {
  if (result.ok) return 'delivered';
  return result.statusCode === null ? 'unreachable' : 'rejected';
}

/** The attempts a job names. */
function attemptsOf(job: DeliverJobData): { deliveryId: string; redeliveries: number; attempt: number }[] {
  return (job.attempts ?? []).flatMap((name) => parseAttemptName(name) ?? []);
}
