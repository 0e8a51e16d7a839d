import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { runStatement } from '../../database/prepared-statement';
import { BatchTransaction, prepared, statement, Statement } from '../../database/statement-batch';
import { WebhookAttemptEntity } from './entities/webhook-attempt.entity';
import { EndpointBreaker, hostOf, toBreaker } from './delivery/deliveries.repository';
import { DeliveryStatus, WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
import { generateDeliveryId } from './webhook-policy';

type Executor = Pick<DataSource | EntityManager, 'query'>;

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
 * Wellhub-format subscription (see EligibilityRepository.factsStatement, `checkInAndWellhub`).
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

/**
 * The event's delivery row, its body given whole or in two parts around the visit's id (see NewEvent). Constant
 * texts, for the reason builtOnce (statement-batch.ts) gives.
 */
const insertEvent = (payload: string) => `INSERT INTO webhook_deliveries
     (id, event_id, event_type, payload, request_id, subscription_id, place_id, url, status, attempts,
      next_attempt_at, created_at)
   VALUES (?, ?, ?, ${payload}, ?, ?, ?, ?, 'pending', 0, ?, ?)`;
const INSERT_EVENT = insertEvent('?');
const INSERT_EVENT_AROUND_VISIT_ID = insertEvent('CONCAT(?, LAST_INSERT_ID(), ?)');

/** Subscriptions, the outbox rows, and the delivery log. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  get subscriptions() {
    return this.dataSource.getRepository(WebhookSubscriptionEntity);
  }

  get deliveries() {
    return this.dataSource.getRepository(WebhookDeliveryEntity);
  }

  get attempts() {
    return this.dataSource.getRepository(WebhookAttemptEntity);
  }

  /**
   * What a check-in event's body needs, read in the check-in's transaction: the place's CHECKIN subscription
   * from its summary columns, as the check-in's facts read takes it (PlaceSummaryRepository).
   */
  checkInFactsStatement(placeId: string, beneficiaryId: number): Statement<CheckInFacts | undefined> {
    return statement(
      `SELECT p.name AS placeName, p.code AS placeCode, b.name, b.email, b.phone, b.cpf, b.code,
              IF(p.check_in_webhook = 1, p.check_in_subscription_id, NULL) AS subscriptionId,
              IF(p.check_in_webhook = 1, p.check_in_webhook_url, NULL) AS url
       FROM places p JOIN beneficiaries b ON b.id = ?
       WHERE p.id = ?`,
      [beneficiaryId, placeId],
      (result) => (result as CheckInFacts[])[0],
    );
  }

  /**
   * The event's delivery row (which carries the event), in the caller's transaction (the outbox); its first
   * attempt is due now. A prepared statement: it runs in every register at a subscribed gym.
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
      prepared(split ? INSERT_EVENT_AROUND_VISIT_ID : INSERT_EVENT, [
        deliveryId,
        event.id,
        event.type,
        ...payload,
        event.requestId ?? null,
        event.subscriptionId,
        event.placeId,
        event.url,
        event.createdAt,
        event.createdAt,
      ]),
    ];
  }

  /**
   * How many attempts are due (those of a batch in flight included: they are due until their outcome), and
   * since when the oldest is due. In two reads
   * of the endpoint index, so that neither walks the delivered history: the endpoints with a due attempt (a
   * loose index scan, one look-up per endpoint), then their due rows alone (one range per endpoint).
   */
  async outboxBacklog(now: Date): Promise<{ pending: number; oldestAt: Date | null }> {
    const endpoints: { id: string }[] = await this.dataSource.query(
      `SELECT subscription_id AS id, MIN(next_attempt_at) AS dueAt FROM webhook_deliveries
       WHERE next_attempt_at <= ? GROUP BY subscription_id`,
      [now],
    );
    if (endpoints.length === 0) return { pending: 0, oldestAt: null };
    const [row]: { pending: string; oldestAt: Date | null }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS pending, MIN(next_attempt_at) AS oldestAt FROM webhook_deliveries
       WHERE subscription_id IN (?) AND next_attempt_at <= ?`,
      [endpoints.map((endpoint) => endpoint.id), now],
    );
    return { pending: Number(row.pending), oldestAt: row.oldestAt };
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
      `SELECT created_at AS createdAt FROM webhook_deliveries
       WHERE place_id = ? AND created_at >= ? AND event_type = 'TEST' ORDER BY created_at`,
      [placeId, since],
    );
    return rows.map((row) => new Date(row.createdAt));
  }

  /** A new URL is a new endpoint: its breaker starts closed (a run sending its deliveries keeps its hold). */
  async resetBreaker(subscriptionId: string, executor: Executor = this.dataSource): Promise<void> {
    await executor.query(
      `UPDATE webhook_endpoint_states SET failures = 0, opens = 0, open_until = NULL, opened_at = NULL,
         last_error = NULL, last_failure_at = NULL
       WHERE subscription_id = ?`,
      [subscriptionId],
    );
  }

  async deliveryLog(placeId: string, status: DeliveryStatus | undefined, offset: number, limit: number) {
    const where = status ? 'd.place_id = ? AND d.status = ?' : 'd.place_id = ?';
    const params = status ? [placeId, status] : [placeId];
    const rows: DeliveryLogRow[] = await this.dataSource.query(
      `SELECT d.id, d.event_id AS eventId, d.event_type AS eventType, d.url, d.status, d.attempts,
              d.last_status_code AS lastStatusCode, d.last_error AS lastError, d.last_attempt_at AS lastAttemptAt,
              d.next_attempt_at AS nextAttemptAt, d.delivered_at AS deliveredAt, d.created_at AS createdAt
       FROM webhook_deliveries d
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
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?,
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
