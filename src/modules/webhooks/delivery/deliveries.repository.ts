import { Injectable } from '@nestjs/common';
import type { WebhookFormat } from '../webhook-formats';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { prepared, statement, Statement, WriteResult } from '../../../database/statement-batch';
import { WebhookAttemptEntity } from '../entities/webhook-attempt.entity';
import { DeliveryStatus } from '../entities/webhook-delivery.entity';

type Executor = Pick<DataSource | EntityManager, 'query'>;

/** The host (and port) of a URL: never its credentials, path or query. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** An attempt that is due or in flight: attempt number `attempts + 1` of chain `redeliveries`. */
export interface DueAttempt {
  id: string;
  subscriptionId: string;
  redeliveries: number;
  attempts: number;
}

/** What sending an attempt needs, read with the claim. */
export interface DeliveryWork extends DueAttempt {
  status: DeliveryStatus;
  eventId: string;
  payload: string;
  /** The subscription's current URL and sealed secret; null when it was deleted. */
  url: string | null;
  secretCiphertext: string | null;
  /** How the subscription's events are signed (null when it was deleted). */
  format: WebhookFormat | null;
  /** The request that caused the event, if any. */
  requestId: string | null;
}

/** The circuit breaker of an endpoint (see WebhookEndpointStateEntity). */
export interface EndpointBreaker {
  subscriptionId: string;
  failures: number;
  opens: number;
  openUntil: Date | null;
  openedAt: Date | null;
  lastError: string | null;
  lastFailureAt: Date | null;
  /** Set when this very batch opened it. */
  justOpened?: boolean;
}

export function toBreaker(row: EndpointBreaker): EndpointBreaker {
  return {
    subscriptionId: String(row.subscriptionId),
    failures: Number(row.failures),
    opens: Number(row.opens),
    openUntil: row.openUntil ? new Date(row.openUntil) : null,
    openedAt: row.openedAt ? new Date(row.openedAt) : null,
    lastError: row.lastError,
    lastFailureAt: row.lastFailureAt ? new Date(row.lastFailureAt) : null,
  };
}

/** A delivery row as an outcome's transaction finds it, locked. */
export interface LockedDelivery {
  id: string;
  redeliveries: number;
  attempts: number;
  /** Still on its way (`pending` or `queued`): its next attempt is awaited. */
  waiting: boolean;
}

/** The run that holds an endpoint: `runId` starts with its Bull job's id. */
export interface EndpointRun {
  subscriptionId: string;
  runId: string;
}

/** One attempt's outcome, to be written: its attempt row and its delivery's next state. */
export interface AttemptWrite {
  deliveryId: string;
  /**
   * The chain and the count of attempts made before this one, as the runner read them: the row is moved only
   * while it still has both.
   */
  redeliveries: number;
  attempts: number;
  attempt: Omit<WebhookAttemptEntity, 'id' | 'deliveryId'>;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** A row waiting for an attempt (the others are over: delivered, or failed for good). */
const WAITING = "status IN ('pending', 'queued')";

const BREAKER_COLUMNS = `subscription_id AS subscriptionId, failures, opens, open_until AS openUntil,
  opened_at AS openedAt, last_error AS lastError, last_failure_at AS lastFailureAt`;

/** A delivery's work with its subscription's URL, secret and format (null when it was deleted). */
const WORK_COLUMNS = `d.id, d.status, d.attempts, d.redeliveries, d.subscription_id AS subscriptionId,
  d.event_id AS eventId, d.payload, d.request_id AS requestId, s.url, s.secret_ciphertext AS secretCiphertext,
  s.format`;

const toWork = (row: DeliveryWork): DeliveryWork => ({
  ...row,
  id: String(row.id),
  subscriptionId: String(row.subscriptionId),
  redeliveries: Number(row.redeliveries),
  attempts: Number(row.attempts),
});

/**
 * The delivery side's SQL: the endpoints' runs, their due attempts and work, their outcomes in bulk, and the
 * breakers. Queries only: what is accepted and what a breaker does are decided in delivery-policy.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  /**
   * Endpoints (subscriptions) with at least one attempt due at `now` and no run sending them, the
   * longest-waiting first, leaving out those whose breaker is open (they may send nothing before `open_until`;
   * a half-open one, past it, is listed for its probe): endpoints that wait behind their breaker, whose due
   * attempts are the oldest, would otherwise fill every round and keep the others from the poller. MIN makes the
   * inner read a loose index scan of the endpoint index ("Using index for group-by"): one look-up per endpoint,
   * never the delivered history. Deleted subscriptions' rows are found too (the runner fails them).
   */
  async dueEndpoints(executor: Executor, now: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await executor.query(
      `SELECT e.id FROM
         (SELECT subscription_id AS id, MIN(next_attempt_at) AS dueAt FROM webhook_deliveries
          WHERE next_attempt_at <= ? GROUP BY subscription_id) e
       LEFT JOIN webhook_endpoint_states st ON st.subscription_id = e.id
       WHERE (st.open_until IS NULL OR st.open_until <= ?) AND (st.run_until IS NULL OR st.run_until <= ?)
       ORDER BY e.dueAt, e.id LIMIT ?`,
      [now, now, now, limit],
    );
    return rows.map((row) => String(row.id));
  }

  /**
   * Run `runId` holds the endpoint until `until`, unless another run holds it now (true when it was taken).
   * Every run of an endpoint writes this one row, so two processes (or Galera nodes) taking it at once conflict.
   */
  async startRun(
    executor: Executor,
    subscriptionId: string,
    runId: string,
    until: Date,
    now: Date,
  ): Promise<boolean> {
    await executor.query(
      'INSERT IGNORE INTO webhook_endpoint_states (subscription_id, failures, opens) VALUES (?, 0, 0)',
      [subscriptionId],
    );
    const result: WriteResult = await executor.query(
      `UPDATE webhook_endpoint_states SET run_id = ?, run_until = ?
       WHERE subscription_id = ? AND (run_until IS NULL OR run_until <= ?)`,
      [runId, until, subscriptionId, now],
    );
    return result.affectedRows > 0;
  }

  /**
   * A started run takes the endpoint over from the job that named it (`jobRunId`), under an id of its own, if
   * the job still holds it: a copy of the job, or a job that started after its hold ended, finds it gone.
   */
  async adoptRun(
    subscriptionId: string,
    jobRunId: string,
    runId: string,
    until: Date,
    now: Date,
  ): Promise<boolean> {
    const adopt = async () => {
      const result: WriteResult = await this.dataSource.query(
        `UPDATE webhook_endpoint_states SET run_id = ?, run_until = ?
         WHERE subscription_id = ? AND run_id = ? AND run_until > ?`,
        [runId, until, subscriptionId, jobRunId, now],
      );
      return result.affectedRows > 0;
    };
    if (await adopt()) return true;
    // On a Galera node an UPDATE does not wait for what the cluster committed before it, a SELECT does
    // (wsrep_sync_wait): the poller's start of the run may not have been applied here yet.
    const [row]: { runId: string | null }[] = await this.dataSource.query(
      'SELECT run_id AS runId FROM webhook_endpoint_states WHERE subscription_id = ?',
      [subscriptionId],
    );
    return row?.runId === jobRunId && adopt();
  }

  /** The run still holds the endpoint, now until `until` (reads as whether it does). */
  renewRunStatement(subscriptionId: string, runId: string, until: Date): Statement<boolean> {
    return prepared(
      'UPDATE webhook_endpoint_states SET run_until = ? WHERE subscription_id = ? AND run_id = ?',
      [until, subscriptionId, runId],
      (result) => (result as WriteResult).affectedRows > 0,
    );
  }

  /** A run whose job waits in the queue holds its endpoint until `until`. */
  async extendRun(subscriptionId: string, runId: string, until: Date): Promise<void> {
    const renew = this.renewRunStatement(subscriptionId, runId, until);
    await this.dataSource.query(renew.sql, [...renew.values]);
  }

  /** The run is over: the endpoint is free for the poller's next run (true when the run still held it). */
  async endRun(
    subscriptionId: string,
    runId: string,
    executor: Executor = this.dataSource,
  ): Promise<boolean> {
    const result: WriteResult = await executor.query(
      `UPDATE webhook_endpoint_states SET run_id = NULL, run_until = NULL
       WHERE subscription_id = ? AND run_id = ?`,
      [subscriptionId, runId],
    );
    return result.affectedRows > 0;
  }

  /**
   * Runs holding their endpoints at `now` whose job has not begun (a run that began holds its endpoint under an
   * id of its own, see adoptedRunId), the first to end first.
   */
  async unstartedRuns(now: Date, limit: number): Promise<EndpointRun[]> {
    const rows: { subscriptionId: string; runId: string }[] = await this.dataSource.query(
      `SELECT subscription_id AS subscriptionId, run_id AS runId FROM webhook_endpoint_states
       WHERE run_until > ? AND run_id NOT LIKE '%/%' ORDER BY run_until LIMIT ?`,
      [now, limit],
    );
    return rows.map((row) => ({ subscriptionId: String(row.subscriptionId), runId: String(row.runId) }));
  }

  /** The breakers of these endpoints that have seen a failure since their last success. */
  async failingEndpoints(
    executor: Executor,
    subscriptionIds: string[],
  ): Promise<Map<string, EndpointBreaker>> {
    if (subscriptionIds.length === 0) return new Map();
    const rows: EndpointBreaker[] = await executor.query(
      `SELECT ${BREAKER_COLUMNS} FROM webhook_endpoint_states WHERE subscription_id IN (?) AND failures > 0`,
      [subscriptionIds],
    );
    return new Map(rows.map((row) => [String(row.subscriptionId), toBreaker(row)]));
  }

  /** The place (`Name (CODE)`) and the target host of these endpoints, for the queue dashboard's jobs. */
  async jobLabels(subscriptionIds: string[]): Promise<Map<string, { place: string; target: string }>> {
    if (subscriptionIds.length === 0) return new Map();
    // A plain read, after the runs' transaction: a locking read would lock the places' rows as well.
    const rows: { id: string; placeName: string; placeCode: string; url: string }[] =
      await this.dataSource.query(
        `SELECT s.id, p.name AS placeName, p.code AS placeCode, s.url FROM webhook_subscriptions s
         JOIN places p ON p.id = s.place_id WHERE s.id IN (?)`,
        [subscriptionIds],
      );
    return new Map(
      rows.map((row) => [
        String(row.id),
        { place: `${row.placeName} (${row.placeCode})`, target: hostOf(row.url) },
      ]),
    );
  }

  /**
   * Up to `limit` due rows of one endpoint, oldest due first, for a run that holds the endpoint (or is about to): a
   * plain read, nothing locked or marked. No other run sends the endpoint's rows, and an outcome moves only a row
   * still waiting for its attempt. The attempts are the rows still waiting; `over` counts the rows among them that
   * are over (delivered or failed) yet still due, which no code path leaves but a hand's edit may (see
   * unscheduleFinished): found in the read the poller makes anyway, so that finding none costs nothing more.
   */
  async claimDue(
    executor: Executor,
    subscriptionId: string,
    now: Date,
    limit: number,
  ): Promise<{ attempts: DueAttempt[]; over: number }> {
    const rows: (DueAttempt & { waiting: number | string })[] = await executor.query(
      `SELECT id, subscription_id AS subscriptionId, redeliveries, attempts, ${WAITING} AS waiting
       FROM webhook_deliveries FORCE INDEX (IDX_webhook_deliveries_endpoint_due)
       WHERE subscription_id = ? AND next_attempt_at <= ?
       ORDER BY next_attempt_at LIMIT ?`,
      [subscriptionId, now, limit],
    );
    const attempts = rows
      .filter((row) => Number(row.waiting) === 1)
      .map((row) => ({
        id: String(row.id),
        subscriptionId: String(row.subscriptionId),
        redeliveries: Number(row.redeliveries),
        attempts: Number(row.attempts),
      }));
    return { attempts, over: rows.length - attempts.length };
  }

  /**
   * Takes off the schedule the endpoint's due rows that are over (delivered or failed): left due, they would keep
   * the endpoint listed by dueEndpoints, first of all (the longest waiting), fill the first batches' reads and
   * count in the outbox backlog. How many were taken off.
   */
  async unscheduleFinished(executor: Executor, subscriptionId: string, now: Date): Promise<number> {
    const result: WriteResult = await executor.query(
      `UPDATE webhook_deliveries FORCE INDEX (IDX_webhook_deliveries_endpoint_due) SET next_attempt_at = NULL
       WHERE subscription_id = ? AND next_attempt_at <= ? AND NOT ${WAITING}`,
      [subscriptionId, now],
    );
    return result.affectedRows;
  }

  /** As claimDue, with each attempt's work: a run's next batch. */
  claimStatement(subscriptionId: string, now: Date, limit: number): Statement<DeliveryWork[]> {
    return prepared(
      `SELECT ${WORK_COLUMNS}
       FROM webhook_deliveries d FORCE INDEX (IDX_webhook_deliveries_endpoint_due)
       LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.subscription_id = ? AND d.next_attempt_at <= ? AND d.${WAITING}
       ORDER BY d.next_attempt_at LIMIT ?`,
      [subscriptionId, now, limit],
      (result) => (result as DeliveryWork[]).map(toWork),
    );
  }

  /** The work of these deliveries, by id; a delivery that is gone is missing from the map. */
  async findWork(deliveryIds: readonly string[]): Promise<Map<string, DeliveryWork>> {
    if (deliveryIds.length === 0) return new Map();
    const rows: DeliveryWork[] = await this.dataSource.query(
      `SELECT ${WORK_COLUMNS} FROM webhook_deliveries d
       LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE d.id IN (?)`,
      [deliveryIds],
    );
    return new Map(rows.map((row) => [String(row.id), toWork(row)]));
  }

  /** The rows of these deliveries, locked for their outcomes. */
  lockStatement(ids: string[]): Statement<Map<string, LockedDelivery>> {
    return statement(
      `SELECT id, redeliveries, attempts, status IN ('pending', 'queued') AS waiting
       FROM webhook_deliveries WHERE id IN (?) FOR UPDATE`,
      [ids],
      (result) =>
        new Map(
          (result as LockedDelivery[]).map((row) => [
            String(row.id),
            {
              id: String(row.id),
              redeliveries: Number(row.redeliveries),
              attempts: Number(row.attempts),
              waiting: Number(row.waiting) === 1,
            },
          ]),
        ),
    );
  }

  /**
   * Each delivery's state after its attempt: one `UPDATE … SET … WHERE id IN (…)` per set of deliveries whose
   * attempts ended alike (same chain, attempt number, URL, outcome, error, time and next attempt). A usual batch
   * is one statement (every answer a 200, first attempts, one URL, one send time); a batch with failures adds
   * one per kind of failure. Measured against the join with a derived table of the values (one `SELECT` per row,
   * `UNION ALL`) it replaced: about a third less of the server's CPU per row (docs/performance.md), and linear in
   * the rows whatever they hold. Each moves only the rows still waiting for that very attempt (on their way,
   * same chain, the attempts before it made), and reads as the number of rows it moved.
   */
  moveStatements(writes: readonly AttemptWrite[]): Statement<number>[] {
    const groups = new Map<string, { write: AttemptWrite; ids: string[] }>();
    for (const write of writes) {
      const { attempt } = write;
      // Numbers and the status, then the URL after its length and the error (told from none) last: unambiguous.
      const times = `${attempt.createdAt.getTime()} ${write.nextAttemptAt?.getTime()}`;
      const key = `${write.redeliveries} ${write.attempts} ${attempt.number} ${write.status} ${attempt.statusCode} ${times} ${attempt.url.length}:${attempt.url}${attempt.error === null ? '-' : `+${attempt.error}`}`;
      const group = groups.get(key);
      if (group) group.ids.push(write.deliveryId);
      else groups.set(key, { write, ids: [write.deliveryId] });
    }
    return [...groups.values()].map(
      ({ write: { redeliveries, attempts, attempt, status, nextAttemptAt }, ids }) =>
        statement(
          `UPDATE webhook_deliveries SET attempts = ?, url = ?, status = ?, last_status_code = ?, last_error = ?,
           last_attempt_at = ?, next_attempt_at = ?${status === 'delivered' ? ', delivered_at = ?' : ''}
         WHERE id IN (?) AND redeliveries = ? AND attempts = ? AND status IN ('pending', 'queued')`,
          [
            attempt.number,
            attempt.url,
            status,
            attempt.statusCode,
            attempt.error,
            attempt.createdAt,
            nextAttemptAt,
            ...(status === 'delivered' ? [attempt.createdAt] : []),
            ids,
            redeliveries,
            attempts,
          ],
          (result) => (result as WriteResult).affectedRows,
        ),
    );
  }

  /** The attempts' log rows, in one statement. */
  attemptsStatement(writes: readonly AttemptWrite[]): Statement {
    return statement(
      `INSERT INTO webhook_attempts (delivery_id, number, url, status_code, duration_ms, response_body, error, created_at)
       VALUES ${writes.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      writes.flatMap(({ deliveryId, attempt }) => [
        deliveryId,
        attempt.number,
        attempt.url,
        attempt.statusCode,
        attempt.durationMs,
        attempt.responseBody,
        attempt.error,
        attempt.createdAt,
      ]),
    );
  }

  /**
   * The endpoint answered: its failures are forgotten and its breaker is closed. The first statement answers
   * whether the breaker had opened (a few failures below the threshold never open it), read before the second
   * resets it; the run holds the endpoint, so no other writes its row between the two.
   */
  closeBreakerStatements(subscriptionId: string): [Statement<boolean>, Statement] {
    return [
      statement(
        `SELECT opened_at IS NOT NULL AS wasOpen FROM webhook_endpoint_states
         WHERE subscription_id = ? AND failures > 0`,
        [subscriptionId],
        (result) => Number((result as { wasOpen: number | string }[])[0]?.wasOpen ?? 0) === 1,
      ),
      statement(
        `UPDATE webhook_endpoint_states SET failures = 0, opens = 0, open_until = NULL, opened_at = NULL
         WHERE subscription_id = ? AND failures > 0`,
        [subscriptionId],
      ),
    ];
  }

  /**
   * `failures` more consecutive failures of an endpoint (counted from 0 after a success when `restart`), then
   * its breaker, locked, as it is now.
   */
  failBreakerStatements(
    subscriptionId: string,
    change: { failures: number; restart: boolean; error: string },
    at: Date,
  ): [Statement, Statement<EndpointBreaker>] {
    const restart = change.restart ? 1 : 0;
    return [
      statement(
        `INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, last_error, last_failure_at)
         VALUES (?, ?, 0, ?, ?)
         ON DUPLICATE KEY UPDATE failures = IF(?, VALUES(failures), failures + VALUES(failures)),
           opens = IF(?, 0, opens), open_until = IF(?, NULL, open_until), opened_at = IF(?, NULL, opened_at),
           last_error = VALUES(last_error), last_failure_at = VALUES(last_failure_at)`,
        [
          subscriptionId,
          change.failures,
          change.error.slice(0, 1000),
          at,
          restart,
          restart,
          restart,
          restart,
        ],
      ),
      statement(
        `SELECT ${BREAKER_COLUMNS} FROM webhook_endpoint_states WHERE subscription_id = ? FOR UPDATE`,
        [subscriptionId],
        (result) => toBreaker((result as EndpointBreaker[])[0]),
      ),
    ];
  }

  openBreakerStatement(subscriptionId: string, openUntil: Date, at: Date): Statement {
    return statement(
      `UPDATE webhook_endpoint_states SET opens = opens + 1, open_until = ?, opened_at = ?
       WHERE subscription_id = ?`,
      [openUntil, at, subscriptionId],
    );
  }

  /**
   * Closes a chain that ended without an outcome of its own: the delivery becomes `failed` (redeliverable),
   * unless the chain was replaced or has moved on since the caller looked.
   */
  async failChain(attempt: DueAttempt, error: string): Promise<boolean> {
    const result: { affectedRows: number } = await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = ?, next_attempt_at = NULL
       WHERE id = ? AND redeliveries = ? AND status IN ('pending', 'queued') AND attempts = ?`,
      [error.slice(0, 1000), attempt.id, attempt.redeliveries, attempt.attempts],
    );
    return result.affectedRows > 0;
  }
}
