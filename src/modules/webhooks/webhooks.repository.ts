import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WebhookAttemptEntity } from './entities/webhook-attempt.entity';
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

export interface DeliveryWork {
  id: string;
  status: DeliveryStatus;
  attempts: number;
  url: string;
  eventId: string;
  payload: string;
  secretCiphertext: string | null;
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

  /** Runs on the caller's connection: inside a check-in transaction a second pool connection could deadlock. */
  async hasActiveSubscription(executor: Executor, placeId: string, type: string): Promise<boolean> {
    const rows: unknown[] = await executor.query(
      'SELECT 1 FROM webhook_subscriptions WHERE place_id = ? AND type = ? AND active = 1 LIMIT 1',
      [placeId, type],
    );
    return rows.length > 0;
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

  /** The event and its delivery row, in the caller's transaction (the outbox). */
  async insertEvent(executor: Executor, event: NewEvent): Promise<string> {
    await executor.query(
      'INSERT INTO webhook_events (id, place_id, type, payload, created_at) VALUES (?, ?, ?, ?, ?)',
      [event.id, event.placeId, event.type, event.payload, event.createdAt],
    );
    const deliveryId = generateDeliveryId();
    await executor.query(
      `INSERT INTO webhook_deliveries (id, event_id, subscription_id, place_id, url, status, attempts, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, ?)`,
      [deliveryId, event.id, event.subscriptionId, event.placeId, event.url, event.createdAt],
    );
    return deliveryId;
  }

  /**
   * Claims up to `limit` deliveries for the queue: pending ones whose time has come, and queued ones that
   * Redis seems to have lost (queued, or due for a retry, longer than `staleBefore` ago).
   */
  async claimDeliveries(manager: EntityManager, now: Date, staleBefore: Date, limit: number) {
    const rows: { id: string; attempts: number }[] = await manager.query(
      `SELECT id, attempts FROM webhook_deliveries
       WHERE (status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= ?))
          OR (status = 'queued' AND COALESCE(next_attempt_at, queued_at) < ?)
       ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED`,
      [now, staleBefore, limit],
    );
    return rows.map((row) => ({ id: String(row.id), attempts: Number(row.attempts) }));
  }

  async markQueued(manager: EntityManager, ids: string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(
      "UPDATE webhook_deliveries SET status = 'queued', queued_at = ?, next_attempt_at = NULL WHERE id IN (?)",
      [now, ids],
    );
  }

  async findWork(deliveryId: string): Promise<DeliveryWork | undefined> {
    const rows: DeliveryWork[] = await this.dataSource.query(
      `SELECT d.id, d.status, d.attempts, d.url, d.event_id AS eventId, e.payload, s.secret_ciphertext AS secretCiphertext
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.id = ?`,
      [deliveryId],
    );
    return rows[0] && { ...rows[0], id: String(rows[0].id), attempts: Number(rows[0].attempts) };
  }

  async recordAttempt(
    deliveryId: string,
    attempt: Omit<WebhookAttemptEntity, 'id' | 'deliveryId'>,
    outcome: { status: DeliveryStatus; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO webhook_attempts (delivery_id, number, status_code, duration_ms, response_body, error, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [
          deliveryId,
          attempt.number,
          attempt.statusCode,
          attempt.durationMs,
          attempt.responseBody,
          attempt.error,
          attempt.createdAt,
        ],
      );
      await manager.query(
        `UPDATE webhook_deliveries SET attempts = ?, status = ?, last_status_code = ?, last_error = ?, last_attempt_at = ?,
           next_attempt_at = ?, delivered_at = IF(? = 'delivered', ?, delivered_at)
         WHERE id = ?`,
        [
          attempt.number,
          outcome.status,
          attempt.statusCode,
          attempt.error,
          attempt.createdAt,
          outcome.nextAttemptAt,
          outcome.status,
          attempt.createdAt,
          deliveryId,
        ],
      );
    });
  }

  async markFailed(deliveryId: string, error: string): Promise<void> {
    await this.dataSource.query(
      "UPDATE webhook_deliveries SET status = 'failed', last_error = ? WHERE id = ?",
      [error, deliveryId],
    );
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

  /** Puts a delivered or failed delivery back in line; false when it is not the place's or still in flight. */
  async requeue(placeId: string, deliveryId: string): Promise<'requeued' | 'missing' | 'busy'> {
    const result: { affectedRows: number } = await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = NULL
       WHERE id = ? AND place_id = ? AND status IN ('delivered', 'failed')`,
      [deliveryId, placeId],
    );
    if (result.affectedRows > 0) return 'requeued';
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM webhook_deliveries WHERE id = ? AND place_id = ?',
      [deliveryId, placeId],
    );
    return rows.length > 0 ? 'busy' : 'missing';
  }
}
