import type { DeliveryStatus } from '../entities/webhook-delivery.entity';
import { retryDelayMs } from '../webhook-policy';

/**
 * The decisions of delivery, as pure functions: what an attempt's answer makes of its delivery, what a batch of
 * answers does to the endpoint's circuit breaker, how many attempts an endpoint may have in flight, the Bull
 * job's id, and what the queue dashboard says of a failure. The poller, the runner and the repository only
 * carry them out.
 */

/** What the sender reports of one attempt (see SendResult). */
export interface AttemptAnswer {
  ok: boolean;
  statusCode: number | null;
  retryAfterMs?: number;
}

export interface DeliveryMove {
  status: Exclude<DeliveryStatus, 'pending'>;
  /** When the next attempt is due; null once the delivery is over. */
  nextAttemptAt: Date | null;
}

/**
 * After attempt `number` (1-based) answered: delivered on a 2xx; failed on 410 Gone, after the schedule's last
 * retry, or when Retry-After cannot be honoured; otherwise queued for the next retry (±20% jitter).
 */
export function moveAfterAttempt(
  answer: AttemptAnswer,
  number: number,
  schedule: number[],
  at: Date,
  random: () => number = Math.random,
): DeliveryMove {
  if (answer.ok) return { status: 'delivered', nextAttemptAt: null };
  if (answer.statusCode === 410 || number >= schedule.length + 1)
    return { status: 'failed', nextAttemptAt: null };
  const delayMs = retryDelayMs(schedule, number, answer.retryAfterMs, random);
  if (delayMs < 0) return { status: 'failed', nextAttemptAt: null };
  return { status: 'queued', nextAttemptAt: new Date(at.getTime() + delayMs) };
}

/**
 * What the answers of one batch to one endpoint, in the order they arrived, do to its breaker:
 * - `none`: all succeeded and the endpoint was not failing (nothing to write);
 * - `close`: the last answer was a success after failures (consecutive failures back to 0);
 * - `fail`: the batch ended with `failures` failures in a row, added to the endpoint's count when nothing in
 *   the batch succeeded (`restart` false), counted from 0 when a success came before them (`restart` true).
 */
export type BreakerChange =
  { kind: 'none' } | { kind: 'close' } | { kind: 'fail'; failures: number; restart: boolean; error: string };

export function breakerChange(
  answers: readonly { ok: boolean; error: string | null }[],
  mayBeFailing: boolean,
): BreakerChange {
  let trailing = 0;
  let succeeded = false;
  let error = 'delivery failed';
  for (const answer of answers) {
    if (answer.ok) {
      succeeded = true;
      trailing = 0;
    } else {
      trailing++;
      error = answer.error ?? 'delivery failed';
    }
  }
  if (trailing > 0) return { kind: 'fail', failures: trailing, restart: succeeded, error };
  return succeeded && mayBeFailing ? { kind: 'close' } : { kind: 'none' };
}

/** An opened breaker stays open at most this long, however often it opened in a row. */
export const MAX_BREAKER_OPEN_SECONDS = 3600;

/**
 * Whether an endpoint's breaker opens now, with `failures` consecutive failures and `opens` openings since its
 * last success: at the threshold, unless it is open already; for `openSeconds`, doubled at each opening, at
 * most an hour. Undefined when it stays as it is.
 */
export function breakerOpening(
  state: { failures: number; opens: number; openUntil: Date | null },
  threshold: number,
  openSeconds: number,
  now: Date,
): { openUntil: Date } | undefined {
  const open = state.openUntil !== null && state.openUntil.getTime() > now.getTime();
  if (state.failures < threshold || open) return undefined;
  const seconds = Math.min(openSeconds * 2 ** state.opens, MAX_BREAKER_OPEN_SECONDS);
  return { openUntil: new Date(now.getTime() + seconds * 1000) };
}

/**
 * How many attempts an endpoint may have in flight: its share (WEBHOOK_ENDPOINT_CONCURRENCY) while its breaker
 * is closed, none while it is open, one probe once its wait is over.
 */
export function endpointShare(
  breaker: { failures: number; openUntil: Date | null } | undefined,
  threshold: number,
  concurrency: number,
  now: Date,
): number {
  if (!breaker || breaker.failures < threshold) return concurrency;
  return breaker.openUntil && breaker.openUntil.getTime() > now.getTime() ? 0 : 1;
}

/**
 * The Bull job id of a run the poller started: the endpoint and the moment it took the endpoint, which holds
 * it as its `run_id`, so that the lost-run check finds the job from the endpoint's row alone. Adding the same
 * run twice is a no-op in Bull.
 */
export function runJobId(subscriptionId: string, startedAt: Date): string {
  return `run.${subscriptionId}.${startedAt.getTime()}`;
}

/** When the poller started the run of this job id (see runJobId), in epoch milliseconds. */
export function runStartedAt(jobId: string): number {
  return Number(jobId.slice(jobId.lastIndexOf('.') + 1));
}

/**
 * How long a run holds its endpoint past its attempts' deadline, from when it is started, taken over or renewed;
 * and how much of that it keeps for writing a batch's outcome. A batch goes only while the hold outlasts its
 * deadline by the second: the poller starts another run of the endpoint only once the hold is over, so the rows
 * a run still has in flight would otherwise be read as due, and sent twice.
 */
export const RUN_HOLD_MARGIN_MS = 10_000;
export const OUTCOME_MARGIN_MS = 5000;

/** The end of a run's hold on its endpoint, taken or renewed at `now`. */
export function runHoldUntil(now: Date, timeoutMs: number): Date {
  return new Date(now.getTime() + timeoutMs + RUN_HOLD_MARGIN_MS);
}

/** A run holding its endpoint until `heldUntil` may send a batch now: its outcome has time to be written. */
export function maySendBatch(now: Date, timeoutMs: number, heldUntil: Date): boolean {
  return now.getTime() + timeoutMs + OUTCOME_MARGIN_MS <= heldUntil.getTime();
}

/**
 * The id under which a run, once its job has begun, holds its endpoint: its job's id and a token of its own, so
 * that a copy of the same job finds the endpoint taken.
 */
export function adoptedRunId(jobId: string, token: string): string {
  return `${jobId}/${token}`;
}

/** One attempt of a batch as the job names it: delivery, redelivery count and attempt number. */
export function attemptName(deliveryId: string, redeliveries: number, attempt: number): string {
  return `${deliveryId}.r${redeliveries}.a${attempt}`;
}

export function parseAttemptName(
  name: string,
): { deliveryId: string; redeliveries: number; attempt: number } | undefined {
  const match = /^(dlv_[0-9a-f]{32})\.r(\d+)\.a(\d+)$/.exec(name);
  return match
    ? { deliveryId: match[1], redeliveries: Number(match[2]), attempt: Number(match[3]) }
    : undefined;
}

/** What a failed attempt says in the queue dashboard: the gym, the target host, why, and what happens next. */
export interface FailedAttempt {
  /** `Name (CODE)` of the place. */
  place?: string;
  /** The target's host, never its path, query or credentials. */
  target?: string;
  deliveryId: string;
  attempt: number;
  error: string;
  /** The first bytes of the receiver's answer, if it answered. */
  responseBody: string | null;
  /** When the delivery is due again; null when it has no attempt left (failed). */
  nextAttemptAt: Date | null;
  /** Set when the endpoint's breaker is open: its deliveries wait until then. */
  breakerOpenUntil?: Date | null;
}

const SUMMARY_ANSWER_CHARS = 200;

/**
 * One line, for the failed job's reason in /admin/queues: support reads which gym's endpoint fails, how, and
 * when it is tried again, without opening the database. The answer's first characters, never the payload.
 * `others`: more failed attempts of the same batch.
 */
export function failedAttemptSummary(failed: FailedAttempt, others = 0): string {
  const who = `${failed.place ?? 'unknown place'} → ${failed.target ?? 'unknown host'}`;
  const answer = failed.responseBody?.replace(/\s+/g, ' ').trim().slice(0, SUMMARY_ANSWER_CHARS);
  const why = answer ? `${failed.error} (${answer})` : failed.error;
  const next =
    failed.nextAttemptAt === null
      ? 'no attempt left: the delivery failed (redeliver it from the delivery log)'
      : `next attempt at ${failed.nextAttemptAt.toISOString()}`;
  const breaker = failed.breakerOpenUntil
    ? `; circuit breaker open until ${failed.breakerOpenUntil.toISOString()}`
    : '';
  const more = others > 0 ? ` (and ${others} more failed attempt${others > 1 ? 's' : ''} in this run)` : '';
  return `${who}: attempt ${failed.attempt} of ${failed.deliveryId} failed: ${why}; ${next}${breaker}${more}`;
}

/**
 * Which of the outcomes reported for these rows are recorded: only the attempt each row waits for (on its way,
 * same chain, same attempt count), and once. A stray copy of an attempt finds its row moved on and is dropped.
 */
export function awaitedOutcomes<R extends { deliveryId: string; redeliveries: number; attempts: number }>(
  rows: ReadonlyMap<string, { redeliveries: number; attempts: number; waiting: boolean }>,
  reports: readonly R[],
): boolean[] {
  const taken = new Set<string>();
  return reports.map((report) => {
    const row = rows.get(report.deliveryId);
    if (!row?.waiting || taken.has(report.deliveryId)) return false;
    if (row.redeliveries !== report.redeliveries || row.attempts !== report.attempts) return false;
    taken.add(report.deliveryId);
    return true;
  });
}
