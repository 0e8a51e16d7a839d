import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { runStatement } from '../../database/prepared-statement';
import { Transactions } from '../../database/transactions';
import { BatchTransaction, statement, Statement, WriteResult } from '../../database/statement-batch';
import { WebhookAttemptEntity } from './entities/webhook-attempt.entity';
import { DeliveryStatus, WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
import type { WebhookFormat } from './webhook-formats';
import { generateDeliveryId } from './webhook-policy';

type Executor = Pick<DataSource | EntityManager, 'query'>;

/** The host (and port) of a URL: never its credentials, path or query. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

export interface CheckInFacts {
  placeName: string;
  placeCode: string;
  name: string;
  email: string | null;
  phone: string | null;
  cpf: string;
  code: string;
  subscriptionId: string | null;
  url: string | null;
}

/**
 * What a Wellhub-format `checkin` event needs, read with the check-in's facts when the place has an active
 * Wellhub-format subscription (see CheckInRepository.factsStatement).
 */
export interface WellhubSubscriber {
  subscriptionId: string;
  url: string;
  additionalData: boolean;
  gymId: number;
  placeName: string;
  memberNumber: string;
  name: string;
  email: string | null;
  phone: string | null;
  /** The place's plans' names by plan id (the event names the check-in's plan). */
  planNames: Map<number, string>;
}

/** CheckInFacts of a place that has an active subscription for the event's type. */
export type SubscribedFacts = CheckInFacts & { subscriptionId: string; url: string };

export interface DeliveryWork {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  redeliveries: number;
  /** An attempt of it is in the queue (the poller handed it over and it has not reported back). */
  inQueue: boolean;
  subscriptionId: string;
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

/** Which chain of attempts a write is about; `attempts` also pins the state the caller last read. */
export interface DeliveryChain {
  redeliveries: number;
  attempts?: number;
}

/** One attempt's outcome, as a worker reports it. */
export interface AttemptRecord {
  deliveryId: string;
  /** The chain and attempt count the worker read before sending: the row must still be there. */
  chain: DeliveryChain & { attempts: number };
  attempt: Omit<WebhookAttemptEntity, 'id' | 'deliveryId'>;
  outcome: { status: DeliveryStatus; nextAttemptAt: Date | null };
  breaker: BreakerUpdate;
  /** After a success: hand the worker its endpoint's next due attempt. */
  claimNext: boolean;
}

/** What recording an attempt did: nothing (the row had moved on), the breaker's change, the next attempt. */
export interface AttemptRecorded {
  recorded: boolean;
  breaker?: EndpointBreaker;
  closed?: boolean;
  /** The endpoint's next due attempt, claimed for this worker, as it is after the claim. */
  next?: DeliveryWork;
}

/** An attempt that is due or in the queue: attempt number `attempts + 1` of chain `redeliveries`. */
export interface DueAttempt {
  id: string;
  subscriptionId: string;
  redeliveries: number;
  attempts: number;
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
  /** Set when this very failure opened it. */
  justOpened?: boolean;
}

/** What an attempt's outcome does to its endpoint's breaker. */
export type BreakerUpdate =
  | { kind: 'success'; subscriptionId: string; mayBeFailing: boolean }
  | { kind: 'failure'; subscriptionId: string; error: string; threshold: number; openSeconds: number };

/** An opened breaker stays open at most this long, however often it opened in a row. */
export const MAX_BREAKER_OPEN_SECONDS = 3600;

function toBreaker(row: EndpointBreaker): EndpointBreaker {
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

export interface DeliveryLogRow {
  id: string;
  eventId: string;
  eventType: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export interface NewEvent {
  id: string;
  placeId: string;
  type: string;
  /**
   * The body as sent. In two parts, the visit inserted just before in the same transaction goes between
   * them: its id is known to the database only (LAST_INSERT_ID()), and the event travels with the visit.
   */
  payload: string | { beforeVisitId: string; afterVisitId: string };
  createdAt: Date;
  subscriptionId: string;
  url: string;
  /** The request that caused the event, when a request did. */
  requestId?: string | null;
}

/** Subscriptions, the outbox rows, and the delivery log. */
@Injectable()
export class WebhooksRepository {
  constructor(
    @InjectDataSource() readonly dataSource: DataSource,
    private readonly transactions: Transactions,
  ) {}

  get subscriptions() {
    return this.dataSource.getRepository(WebhookSubscriptionEntity);
  }

  get deliveries() {
    return this.dataSource.getRepository(WebhookDeliveryEntity);
  }

  get attempts() {
    return this.dataSource.getRepository(WebhookAttemptEntity);
  }

  /** What a CHECK_IN_CREATED body needs, read in the visit's transaction. */
  checkInFactsStatement(
    placeId: string,
    beneficiaryId: number,
    type: string,
  ): Statement<CheckInFacts | undefined> {
    return statement(
      `SELECT p.name AS placeName, p.code AS placeCode, b.name, b.email, b.phone, b.cpf, b.code,
              s.id AS subscriptionId, s.url
       FROM places p JOIN beneficiaries b ON b.id = ?
       LEFT JOIN webhook_subscriptions s ON s.place_id = p.id AND s.type = ? AND s.active = 1
       WHERE p.id = ?`,
      [beneficiaryId, type, placeId],
      (result) => (result as CheckInFacts[])[0],
    );
  }

  /**
   * The event and its delivery row, in the caller's transaction (the outbox); its first attempt is due now.
   * Prepared statements: they run in every register at a subscribed gym.
   */
  async insertEvent(
    executor: DataSource | EntityManager | BatchTransaction,
    event: NewEvent,
  ): Promise<string> {
    const deliveryId = generateDeliveryId();
    for (const each of this.eventStatements(event, deliveryId)) await runStatement(executor, each);
    return deliveryId;
  }

  /** The statements of insertEvent, for a caller that sends them with others. */
  eventStatements(event: NewEvent, deliveryId = generateDeliveryId()): Statement[] {
    const split = typeof event.payload !== 'string';
    const payload =
      typeof event.payload === 'string'
        ? [event.payload]
        : [event.payload.beforeVisitId, event.payload.afterVisitId];
    return [
      statement(
        `INSERT INTO webhook_events (id, place_id, type, payload, created_at, request_id)
         VALUES (?, ?, ?, ${split ? 'CONCAT(?, LAST_INSERT_ID(), ?)' : '?'}, ?, ?)`,
        [event.id, event.placeId, event.type, ...payload, event.createdAt, event.requestId ?? null],
      ),
      statement(
        `INSERT INTO webhook_deliveries
           (id, event_id, subscription_id, place_id, url, status, attempts, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
        [
          deliveryId,
          event.id,
          event.subscriptionId,
          event.placeId,
          event.url,
          event.createdAt,
          event.createdAt,
        ],
      ),
    ];
  }

  /** How many attempts are due and not handed to the queue yet, and since when the oldest is due. */
  async outboxBacklog(now: Date): Promise<{ pending: number; oldestAt: Date | null }> {
    const [row]: { pending: string; oldestAt: Date | null }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS pending, MIN(next_attempt_at) AS oldestAt FROM webhook_deliveries
       WHERE queued_at IS NULL AND next_attempt_at <= ?`,
      [now],
    );
    return { pending: Number(row.pending), oldestAt: row.oldestAt };
  }

  /** Endpoints (subscriptions) with at least one attempt due at `now` and not in the queue yet. */
  async dueEndpoints(executor: Executor, now: Date, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await executor.query(
      `SELECT DISTINCT subscription_id AS id FROM webhook_deliveries
       WHERE queued_at IS NULL AND next_attempt_at <= ? LIMIT ?`,
      [now, limit],
    );
    return rows.map((row) => String(row.id));
  }

  /** The place (`Name (CODE)`) and the target host of each delivery, for the queue dashboard's jobs. */
  async jobLabels(
    executor: Executor,
    ids: string[],
  ): Promise<Map<string, { place: string; target: string }>> {
    if (ids.length === 0) return new Map();
    // A plain read, apart from the claim: a locking read would lock the places' rows as well.
    const rows: { id: string; placeName: string; placeCode: string; url: string }[] = await executor.query(
      `SELECT d.id, p.name AS placeName, p.code AS placeCode, d.url FROM webhook_deliveries d
       JOIN places p ON p.id = d.place_id WHERE d.id IN (?)`,
      [ids],
    );
    return new Map(
      rows.map((row) => [
        String(row.id),
        { place: `${row.placeName} (${row.placeCode})`, target: hostOf(row.url) },
      ]),
    );
  }

  /** Attempts of these endpoints in the queue right now. */
  async inFlight(executor: Executor, subscriptionIds: string[]): Promise<Map<string, number>> {
    if (subscriptionIds.length === 0) return new Map();
    const rows: { id: string; n: string }[] = await executor.query(
      `SELECT subscription_id AS id, COUNT(*) AS n FROM webhook_deliveries
       WHERE subscription_id IN (?) AND queued_at IS NOT NULL GROUP BY subscription_id`,
      [subscriptionIds],
    );
    return new Map(rows.map((row) => [String(row.id), Number(row.n)]));
  }

  /** The breakers of these endpoints that have seen a failure since their last success. */
  async failingEndpoints(
    executor: Executor,
    subscriptionIds: string[],
  ): Promise<Map<string, EndpointBreaker>> {
    if (subscriptionIds.length === 0) return new Map();
    const rows: EndpointBreaker[] = await executor.query(
      `SELECT subscription_id AS subscriptionId, failures, opens, open_until AS openUntil, opened_at AS openedAt,
              last_error AS lastError, last_failure_at AS lastFailureAt
       FROM webhook_endpoint_states WHERE subscription_id IN (?) AND failures > 0`,
      [subscriptionIds],
    );
    return new Map(rows.map((row) => [String(row.subscriptionId), toBreaker(row)]));
  }

  /**
   * Every active subscription's endpoint, and whether its breaker holds its deliveries (open, or half-open
   * with one probe allowed): `threshold` failures since its last success. For the metrics scrape.
   */
  async endpointCircuits(
    threshold: number,
  ): Promise<{ subscriptionId: string; host: string; open: boolean }[]> {
    const rows: { id: string; url: string; failures: string | null }[] = await this.dataSource.query(
      `SELECT s.id, s.url, st.failures FROM webhook_subscriptions s
       LEFT JOIN webhook_endpoint_states st ON st.subscription_id = s.id
       WHERE s.active = 1`,
    );
    return rows.map((row) => ({
      subscriptionId: String(row.id),
      host: hostOf(row.url),
      open: Number(row.failures ?? 0) >= threshold,
    }));
  }

  /** Claims up to `limit` due attempts of one endpoint, oldest due first, skipping rows another poller holds. */
  async claimDue(manager: Executor, subscriptionId: string, now: Date, limit: number): Promise<DueAttempt[]> {
    const claim = this.claimDueStatement(subscriptionId, now, limit);
    return claim.read(await manager.query(claim.sql, [...claim.values]));
  }

  private claimDueStatement(subscriptionId: string, now: Date, limit: number): Statement<DueAttempt[]> {
    return statement(
      `SELECT id, subscription_id AS subscriptionId, redeliveries, attempts
       FROM webhook_deliveries FORCE INDEX (IDX_webhook_deliveries_endpoint_due)
       WHERE subscription_id = ? AND queued_at IS NULL AND next_attempt_at <= ?
       ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED`,
      [subscriptionId, now, limit],
      (result) =>
        (result as DueAttempt[]).map((row) => ({
          id: String(row.id),
          subscriptionId: String(row.subscriptionId),
          redeliveries: Number(row.redeliveries),
          attempts: Number(row.attempts),
        })),
    );
  }

  /** These attempts are handed to the queue at `now`. */
  async markQueued(manager: Executor, ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    const mark = this.markQueuedStatement(ids, now);
    await manager.query(mark.sql, [...mark.values]);
  }

  private markQueuedStatement(ids: string[], now: Date): Statement {
    return statement('UPDATE webhook_deliveries SET queued_at = ? WHERE id IN (?)', [now, ids]);
  }

  /** The queue did not take these attempts: they wait again, still due. */
  async unqueue(ids: string[], queuedAt: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      'UPDATE webhook_deliveries SET queued_at = NULL WHERE id IN (?) AND queued_at = ?',
      [ids, queuedAt],
    );
  }

  /** Attempts handed to the queue before `before` that have not reported back: the queue may have lost them. */
  async queuedBefore(before: Date, limit: number): Promise<DueAttempt[]> {
    const rows: DueAttempt[] = await this.dataSource.query(
      `SELECT id, subscription_id AS subscriptionId, redeliveries, attempts FROM webhook_deliveries
       WHERE queued_at IS NOT NULL AND queued_at < ? ORDER BY queued_at LIMIT ?`,
      [before, limit],
    );
    return rows.map((row) => ({
      id: String(row.id),
      subscriptionId: String(row.subscriptionId),
      redeliveries: Number(row.redeliveries),
      attempts: Number(row.attempts),
    }));
  }

  /** The queue still holds these attempts: look at them again later. */
  async confirmQueued(ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      'UPDATE webhook_deliveries SET queued_at = ? WHERE id IN (?) AND queued_at IS NOT NULL',
      [now, ids],
    );
  }

  /**
   * The queue lost this attempt (or ran it without an outcome): it is due again at `now`, unless it has
   * reported back since the caller looked.
   */
  async releaseLost(attempt: DueAttempt, now: Date): Promise<boolean> {
    const result: { affectedRows: number } = await this.dataSource.query(
      `UPDATE webhook_deliveries SET queued_at = NULL, next_attempt_at = ?
       WHERE id = ? AND redeliveries = ? AND attempts = ? AND queued_at IS NOT NULL`,
      [now, attempt.id, attempt.redeliveries, attempt.attempts],
    );
    return result.affectedRows > 0;
  }

  /** The work of these deliveries, by id; a delivery that is gone is missing from the map. */
  async findWork(
    deliveryIds: readonly string[],
    executor: Executor = this.dataSource,
  ): Promise<Map<string, DeliveryWork>> {
    if (deliveryIds.length === 0) return new Map();
    const find = this.findWorkStatement(deliveryIds);
    return find.read(await executor.query(find.sql, [...find.values]));
  }

  private findWorkStatement(deliveryIds: readonly string[]): Statement<Map<string, DeliveryWork>> {
    return statement(
      `SELECT d.id, d.status, d.attempts, d.redeliveries, d.queued_at IS NOT NULL AS inQueue,
              d.subscription_id AS subscriptionId, d.event_id AS eventId, e.payload,
              e.request_id AS requestId, s.url, s.secret_ciphertext AS secretCiphertext, s.format
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.id IN (?)`,
      [deliveryIds],
      (result) =>
        new Map(
          (result as DeliveryWork[]).map((row) => [
            String(row.id),
            {
              ...row,
              id: String(row.id),
              attempts: Number(row.attempts),
              redeliveries: Number(row.redeliveries),
              inQueue: Boolean(Number(row.inQueue)),
            },
          ]),
        ),
    );
  }

  /**
   * Logs attempts and moves their deliveries on, with their endpoints' breakers, in one transaction (the
   * outcomes that workers report at about the same time go together). Only the attempt a delivery is waiting
   * for is recorded: a stray copy of a job finds the row moved on and writes nothing (`recorded: false`).
   * After a success the worker may ask for its endpoint's next due attempt (`claimNext`): the endpoint keeps
   * its share (one attempt ends, one starts) without a trip through the poller and the queue. That attempt's
   * `queued_at` is the end of the worker's lease, so that the lost-attempt check leaves it alone while it runs.
   */
  async recordAttempts(
    records: readonly AttemptRecord[],
    lease: { now: Date; leaseUntil: Date },
  ): Promise<AttemptRecorded[]> {
    // Three round trips when every outcome is a success (see BatchTransaction): the rows locked; their moves,
    // the attempts, the breakers closed and the next attempts claimed; those marked, their work read, COMMIT.
    return this.transactions.batch(
      async (tx) => {
        const ids = [...new Set(records.map((record) => record.deliveryId))];
        const [rows] = await tx.run(
          statement(
            `SELECT id, redeliveries, attempts, queued_at IS NOT NULL AS inQueue
           FROM webhook_deliveries WHERE id IN (?) FOR UPDATE`,
            [ids],
            (result) => result as { id: string; redeliveries: number; attempts: number; inQueue: number }[],
          ),
        );
        const waiting = new Map(
          rows.map((row) => [
            String(row.id),
            {
              redeliveries: Number(row.redeliveries),
              attempts: Number(row.attempts),
              inQueue: Number(row.inQueue) === 1,
            },
          ]),
        );
        const results: AttemptRecorded[] = records.map(() => ({ recorded: false }));
        const accepted: number[] = [];
        records.forEach((record, index) => {
          const row = waiting.get(record.deliveryId);
          if (!row?.inQueue || row.redeliveries !== record.chain.redeliveries) return;
          if (row.attempts !== record.chain.attempts) return;
          accepted.push(index);
          waiting.set(record.deliveryId, { ...row, attempts: record.attempt.number, inQueue: false });
        });
        if (accepted.length === 0) return results;

        const failures: number[] = [];
        const closes: number[] = [];
        const wantNext = new Map<string, number[]>();
        for (const index of accepted) {
          const { breaker, claimNext } = records[index];
          results[index] = { recorded: true };
          if (breaker.kind === 'failure') {
            failures.push(index);
            continue;
          }
          if (breaker.mayBeFailing) closes.push(index);
          if (claimNext)
            wantNext.set(breaker.subscriptionId, [...(wantNext.get(breaker.subscriptionId) ?? []), index]);
        }
        const acceptedRecords = accepted.map((index) => records[index]);
        const writes = [
          this.moveStatement(acceptedRecords),
          this.attemptsStatement(acceptedRecords),
          ...closes.map((index) =>
            statement(
              `UPDATE webhook_endpoint_states SET failures = 0, opens = 0, open_until = NULL, opened_at = NULL
             WHERE subscription_id = ? AND failures > 0`,
              [records[index].breaker.subscriptionId],
              (result) => (result as WriteResult).affectedRows > 0,
            ),
          ),
        ];
        const claims = [...wantNext].map(([subscriptionId, indexes]) =>
          this.claimDueStatement(subscriptionId, lease.now, indexes.length),
        );
        // A failure's breaker takes statements that depend on each other; the claims then wait for them, so
        // that the locks are taken in the same order as ever (deliveries, endpoint states, deliveries).
        const written = await tx.run(...writes, ...(failures.length === 0 ? claims : []));
        closes.forEach((index, i) => (results[index].closed = written[2 + i] as boolean));
        for (const index of failures) {
          const breaker = records[index].breaker as Extract<BreakerUpdate, { kind: 'failure' }>;
          results[index].breaker = await this.countFailure(tx, breaker, records[index].attempt.createdAt);
        }
        const claimedLists = (
          failures.length === 0 || claims.length === 0
            ? written.slice(writes.length)
            : await tx.run(...claims)
        ) as DueAttempt[][];
        const claimed = new Map<string, number>();
        [...wantNext.values()].forEach((indexes, i) =>
          claimedLists[i].forEach((attempt, j) => claimed.set(attempt.id, indexes[j])),
        );
        if (claimed.size === 0) {
          await tx.commit();
          return results;
        }
        // The next attempts' work, read here rather than by one more trip of each worker.
        const [, work] = await tx.commit(
          this.markQueuedStatement([...claimed.keys()], lease.leaseUntil),
          this.findWorkStatement([...claimed.keys()]),
        );
        for (const [id, next] of work) results[claimed.get(id) as number].next = next;
        return results;
      },
      { isolation: 'READ COMMITTED' },
    );
  }

  /** Each delivery's state after its attempt, in one statement. */
  private moveStatement(records: AttemptRecord[]): Statement {
    const rows = records.map(
      () => 'SELECT ? AS id, ? AS number, ? AS url, ? AS status, ? AS code, ? AS error, ? AS at, ? AS nextAt',
    );
    return statement(
      `UPDATE webhook_deliveries d JOIN (${rows.join(' UNION ALL ')}) v ON v.id = d.id
       SET d.attempts = v.number, d.url = v.url, d.status = v.status, d.last_status_code = v.code,
           d.last_error = v.error, d.last_attempt_at = v.at, d.next_attempt_at = v.nextAt, d.queued_at = NULL,
           d.delivered_at = IF(v.status = 'delivered', v.at, d.delivered_at)`,
      records.flatMap(({ deliveryId, attempt, outcome }) => [
        deliveryId,
        attempt.number,
        attempt.url,
        outcome.status,
        attempt.statusCode,
        attempt.error,
        attempt.createdAt,
        outcome.nextAttemptAt,
      ]),
    );
  }

  private attemptsStatement(records: AttemptRecord[]): Statement {
    return statement(
      `INSERT INTO webhook_attempts (delivery_id, number, url, status_code, duration_ms, response_body, error, created_at)
       VALUES ${records.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      records.flatMap(({ deliveryId, attempt }) => [
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

  /** One more consecutive failure of an endpoint; opens (or opens again) its breaker at the threshold. */
  private async countFailure(
    manager: Executor,
    breaker: Extract<BreakerUpdate, { kind: 'failure' }>,
    now: Date,
  ): Promise<EndpointBreaker> {
    await manager.query(
      `INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, last_error, last_failure_at)
       VALUES (?, 1, 0, ?, ?)
       ON DUPLICATE KEY UPDATE failures = failures + 1, last_error = VALUES(last_error),
         last_failure_at = VALUES(last_failure_at)`,
      [breaker.subscriptionId, breaker.error.slice(0, 1000), now],
    );
    const [row]: EndpointBreaker[] = await manager.query(
      `SELECT subscription_id AS subscriptionId, failures, opens, open_until AS openUntil, opened_at AS openedAt,
              last_error AS lastError, last_failure_at AS lastFailureAt
       FROM webhook_endpoint_states WHERE subscription_id = ? FOR UPDATE`,
      [breaker.subscriptionId],
    );
    const state = toBreaker(row);
    const open = state.openUntil !== null && state.openUntil.getTime() > now.getTime();
    if (state.failures < breaker.threshold || open) return state;
    const seconds = Math.min(breaker.openSeconds * 2 ** state.opens, MAX_BREAKER_OPEN_SECONDS);
    const openUntil = new Date(now.getTime() + seconds * 1000);
    await manager.query(
      `UPDATE webhook_endpoint_states SET opens = opens + 1, open_until = ?, opened_at = ?
       WHERE subscription_id = ?`,
      [openUntil, now, breaker.subscriptionId],
    );
    return { ...state, opens: state.opens + 1, openUntil, openedAt: now, justOpened: true };
  }

  /** The breakers of a place's endpoints, by subscription id. */
  async breakersOfPlace(placeId: string): Promise<Map<string, EndpointBreaker>> {
    const rows: EndpointBreaker[] = await this.dataSource.query(
      `SELECT b.subscription_id AS subscriptionId, b.failures, b.opens, b.open_until AS openUntil,
              b.opened_at AS openedAt, b.last_error AS lastError, b.last_failure_at AS lastFailureAt
       FROM webhook_endpoint_states b JOIN webhook_subscriptions s ON s.id = b.subscription_id
       WHERE s.place_id = ?`,
      [placeId],
    );
    return new Map(rows.map((row) => [String(row.subscriptionId), toBreaker(row)]));
  }

  /**
   * Test events of a place since `since`, oldest first (their times), in the caller's transaction; the place's
   * subscription row is locked first, so that two requests cannot both take the last place in the window.
   */
  async testEventsSince(manager: EntityManager, subscriptionId: string, placeId: string, since: Date) {
    await manager.query('SELECT id FROM webhook_subscriptions WHERE id = ? FOR UPDATE', [subscriptionId]);
    const rows: { createdAt: Date }[] = await manager.query(
      `SELECT created_at AS createdAt FROM webhook_events
       WHERE place_id = ? AND created_at >= ? AND type = 'TEST' ORDER BY created_at`,
      [placeId, since],
    );
    return rows.map((row) => new Date(row.createdAt));
  }

  /** A new URL is a new endpoint: its breaker starts closed. */
  async resetBreaker(subscriptionId: string, executor: Executor = this.dataSource): Promise<void> {
    await executor.query('DELETE FROM webhook_endpoint_states WHERE subscription_id = ?', [subscriptionId]);
  }

  /**
   * Closes a chain that ended without an outcome of its own: the delivery becomes `failed` (redeliverable),
   * unless the chain was replaced or has moved on since the caller looked.
   */
  async failChain(deliveryId: string, chain: DeliveryChain, error: string): Promise<boolean> {
    const result: { affectedRows: number } = await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = ?, next_attempt_at = NULL, queued_at = NULL
       WHERE id = ? AND redeliveries = ? AND status IN ('pending', 'queued') AND (? IS NULL OR attempts = ?)`,
      [error.slice(0, 1000), deliveryId, chain.redeliveries, chain.attempts ?? null, chain.attempts ?? null],
    );
    return result.affectedRows > 0;
  }

  async deliveryLog(placeId: string, status: DeliveryStatus | undefined, offset: number, limit: number) {
    const where = status ? 'd.place_id = ? AND d.status = ?' : 'd.place_id = ?';
    const params = status ? [placeId, status] : [placeId];
    const rows: DeliveryLogRow[] = await this.dataSource.query(
      `SELECT d.id, d.event_id AS eventId, e.type AS eventType, d.url, d.status, d.attempts,
              d.last_status_code AS lastStatusCode, d.last_error AS lastError, d.last_attempt_at AS lastAttemptAt,
              d.next_attempt_at AS nextAttemptAt, d.delivered_at AS deliveredAt, d.created_at AS createdAt
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE ${where} ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM webhook_deliveries d WHERE ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /**
   * Puts a delivered or failed delivery back in line as a new chain of attempts; 'busy' when it is still in
   * flight, 'missing' when it is not the place's.
   */
  async requeue(
    placeId: string,
    deliveryId: string,
    now: Date,
    executor: Executor = this.dataSource,
  ): Promise<'requeued' | 'missing' | 'busy'> {
    const result: { affectedRows: number } = await executor.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, queued_at = NULL,
         redeliveries = redeliveries + 1
       WHERE id = ? AND place_id = ? AND status IN ('delivered', 'failed')`,
      [now, deliveryId, placeId],
    );
    if (result.affectedRows > 0) return 'requeued';
    const rows: unknown[] = await executor.query(
      'SELECT 1 FROM webhook_deliveries WHERE id = ? AND place_id = ?',
      [deliveryId, placeId],
    );
    return rows.length > 0 ? 'busy' : 'missing';
  }
}
