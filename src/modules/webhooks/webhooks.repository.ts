import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { executePrepared } from '../../database/prepared-statement';
import { WebhookAttemptEntity } from './entities/webhook-attempt.entity';
import { DeliveryStatus, WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookSubscriptionEntity } from './entities/webhook-subscription.entity';
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

/** CheckInFacts of a place that has an active subscription for the event's type. */
export type SubscribedFacts = CheckInFacts & { subscriptionId: string; url: string };

export interface DeliveryWork {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  redeliveries: number;
  eventId: string;
  payload: string;
  /** The subscription's current URL and sealed secret; null when it was deleted. */
  url: string | null;
  secretCiphertext: string | null;
  /** The request that caused the event, if any. */
  requestId: string | null;
}

/** Which chain of attempts a write is about; `attempts` also pins the state the caller last read. */
export interface DeliveryChain {
  redeliveries: number;
  attempts?: number;
}

export interface QueuedDelivery {
  id: string;
  redeliveries: number;
  attempts: number;
  /** Null while the chain has not made an attempt yet. */
  nextAttemptAt: Date | null;
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
  payload: string;
  createdAt: Date;
  subscriptionId: string;
  url: string;
  /** The request that caused the event, when a request did. */
  requestId?: string | null;
}

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

  /** What a CHECK_IN_CREATED body needs, read in the visit's transaction. */
  async checkInFacts(
    manager: EntityManager,
    placeId: string,
    beneficiaryId: number,
    type: string,
  ): Promise<CheckInFacts | undefined> {
    const rows: CheckInFacts[] = await manager.query(
      `SELECT p.name AS placeName, p.code AS placeCode, b.name, b.email, b.phone, b.cpf, b.code,
              s.id AS subscriptionId, s.url
       FROM places p JOIN beneficiaries b ON b.id = ?
       LEFT JOIN webhook_subscriptions s ON s.place_id = p.id AND s.type = ? AND s.active = 1
       WHERE p.id = ?`,
      [beneficiaryId, type, placeId],
    );
    return rows[0];
  }

  /**
   * The event and its delivery row, in the caller's transaction (the outbox). Prepared statements: they run
   * in every register at a subscribed gym.
   */
  async insertEvent(executor: DataSource | EntityManager, event: NewEvent): Promise<string> {
    await executePrepared(
      executor,
      'INSERT INTO webhook_events (id, place_id, type, payload, created_at, request_id) VALUES (?, ?, ?, ?, ?, ?)',
      [event.id, event.placeId, event.type, event.payload, event.createdAt, event.requestId ?? null],
    );
    const deliveryId = generateDeliveryId();
    await executePrepared(
      executor,
      `INSERT INTO webhook_deliveries (id, event_id, subscription_id, place_id, url, status, attempts, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?)`,
      [deliveryId, event.id, event.subscriptionId, event.placeId, event.url, event.createdAt],
    );
    return deliveryId;
  }

  /** How many deliveries wait in the outbox for the relay, and since when the oldest does. */
  async outboxBacklog(): Promise<{ pending: number; oldestAt: Date | null }> {
    const [row]: { pending: string; oldestAt: Date | null }[] = await this.dataSource.query(
      "SELECT COUNT(*) AS pending, MIN(created_at) AS oldestAt FROM webhook_deliveries WHERE status = 'pending'",
    );
    return { pending: Number(row.pending), oldestAt: row.oldestAt };
  }

  /** Claims up to `limit` pending deliveries for the queue, skipping rows another relay holds. */
  async claimPending(manager: EntityManager, limit: number): Promise<{ id: string; redeliveries: number }[]> {
    const rows: { id: string; redeliveries: number }[] = await manager.query(
      `SELECT id, redeliveries FROM webhook_deliveries WHERE status = 'pending'
       ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    return rows.map((row) => ({ id: String(row.id), redeliveries: Number(row.redeliveries) }));
  }

  /** The place (`Name (CODE)`) and the target host of each delivery, for the queue dashboard's jobs. */
  async jobLabels(executor: Executor, ids: string[]): Promise<Map<string, { place: string; target: string }>> {
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

  /** The chain is in Bull and has made no attempt yet; `queued_at` is when the queue last confirmed it. */
  async markQueued(manager: EntityManager, ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(
      "UPDATE webhook_deliveries SET status = 'queued', queued_at = ?, next_attempt_at = NULL WHERE id IN (?)",
      [now, ids],
    );
  }

  /** Bull still (or again) holds these chains, none attempted yet: look at them again later. */
  async confirmQueued(ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET queued_at = ?
       WHERE id IN (?) AND status = 'queued' AND next_attempt_at IS NULL`,
      [now, ids],
    );
  }

  /**
   * Queued deliveries that look stuck: queued before `staleBefore` with no attempt since (Redis may have lost
   * the job), or whose retry was due before `staleBefore` (Redis may have lost the retry).
   */
  async staleQueued(staleBefore: Date, limit: number): Promise<QueuedDelivery[]> {
    const rows: QueuedDelivery[] = await this.dataSource.query(
      `SELECT id, redeliveries, attempts, next_attempt_at AS nextAttemptAt FROM webhook_deliveries
       WHERE status = 'queued'
         AND ((next_attempt_at IS NULL AND queued_at < ?) OR next_attempt_at < ?)
       ORDER BY COALESCE(next_attempt_at, queued_at) LIMIT ?`,
      [staleBefore, staleBefore, limit],
    );
    return rows.map((row) => ({
      ...row,
      id: String(row.id),
      redeliveries: Number(row.redeliveries),
      attempts: Number(row.attempts),
    }));
  }

  async findWork(deliveryId: string): Promise<DeliveryWork | undefined> {
    const rows: DeliveryWork[] = await this.dataSource.query(
      `SELECT d.id, d.status, d.attempts, d.redeliveries, d.event_id AS eventId, e.payload,
              e.request_id AS requestId, s.url, s.secret_ciphertext AS secretCiphertext
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.id = ?`,
      [deliveryId],
    );
    const row = rows[0];
    return (
      row && {
        ...row,
        id: String(row.id),
        attempts: Number(row.attempts),
        redeliveries: Number(row.redeliveries),
      }
    );
  }

  /** Logs an attempt and moves its chain on; a chain that a redelivery replaced keeps only the log line. */
  async recordAttempt(
    deliveryId: string,
    chain: DeliveryChain,
    attempt: Omit<WebhookAttemptEntity, 'id' | 'deliveryId'>,
    outcome: { status: DeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO webhook_attempts (delivery_id, number, url, status_code, duration_ms, response_body, error, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          deliveryId,
          attempt.number,
          attempt.url,
          attempt.statusCode,
          attempt.durationMs,
          attempt.responseBody,
          attempt.error,
          attempt.createdAt,
        ],
      );
      await manager.query(
        `UPDATE webhook_deliveries SET attempts = ?, url = ?, status = ?, last_status_code = ?, last_error = ?,
           last_attempt_at = ?, next_attempt_at = ?, delivered_at = IF(? = 'delivered', ?, delivered_at)
         WHERE id = ? AND redeliveries = ?`,
        [
          attempt.number,
          attempt.url,
          outcome.status,
          attempt.statusCode,
          attempt.error,
          attempt.createdAt,
          outcome.nextAttemptAt,
          outcome.status,
          attempt.createdAt,
          deliveryId,
          chain.redeliveries,
        ],
      );
    });
  }

  /**
   * Closes a chain that ended without an outcome of its own: the delivery becomes `failed` (redeliverable),
   * unless the chain was replaced or has moved on since the caller looked.
   */
  async failChain(deliveryId: string, chain: DeliveryChain, error: string): Promise<boolean> {
    const result: { affectedRows: number } = await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = ?, next_attempt_at = NULL
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
    executor: Executor = this.dataSource,
  ): Promise<'requeued' | 'missing' | 'busy'> {
    const result: { affectedRows: number } = await executor.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = NULL, redeliveries = redeliveries + 1
       WHERE id = ? AND place_id = ? AND status IN ('delivered', 'failed')`,
      [deliveryId, placeId],
    );
    if (result.affectedRows > 0) return 'requeued';
    const rows: unknown[] = await executor.query(
      'SELECT 1 FROM webhook_deliveries WHERE id = ? AND place_id = ?',
      [deliveryId, placeId],
    );
    return rows.length > 0 ? 'busy' : 'missing';
  }
}
