import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PlaceReach, placeReachCondition } from '../auth/caller';
import { FAILING_SQL } from './delivery-health.repository';
import { DeliveryStatus } from './entities/webhook-delivery.entity';
import { DeliveryLogRow } from './webhooks.repository';

export interface AdminDeliveryRow extends DeliveryLogRow {
  /** The circuit breaker of the delivery's endpoint (null when it never failed). */
  endpointFailures: number | null;
  endpointOpenUntil: Date | null;
  endpointLastError: string | null;
  endpointLastFailureAt: Date | null;
  placeId: string;
  placeName: string | null;
  partnerId: number | null;
}

export interface AdminDeliveryDetailRow extends AdminDeliveryRow {
  payload: string;
  requestId: string | null;
}

export interface AttemptRow {
  number: number;
  url: string;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
  createdAt: Date;
}

export interface DeliveryFilter extends PlaceReach {
  status?: DeliveryStatus;
  /** Failed, or waiting for a retry after a failed attempt. */
  failing?: boolean;
}

const COLUMNS = `d.id, d.place_id AS placeId, p.name AS placeName, p.partner_id AS partnerId, d.event_id AS eventId,
  d.event_type AS eventType, d.url, d.status, d.attempts, d.last_status_code AS lastStatusCode, d.last_error AS lastError,
  d.last_attempt_at AS lastAttemptAt, d.next_attempt_at AS nextAttemptAt, d.delivered_at AS deliveredAt,
  d.created_at AS createdAt, b.failures AS endpointFailures, b.open_until AS endpointOpenUntil,
  b.last_error AS endpointLastError, b.last_failure_at AS endpointLastFailureAt`;

/** The WHERE of the delivery list and its export (before the delivery `beforeId`, for the next batch). */
function deliveryWhere(filter: DeliveryFilter, beforeId?: string): [string, unknown[]] {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.status) {
    conditions.push('d.status = ?');
    params.push(filter.status);
  }
  if (filter.failing) conditions.push(FAILING_SQL);
  const [reached, reachedParams] = placeReachCondition(filter, 'd.place_id');
  conditions.push(reached);
  params.push(...reachedParams);
  if (beforeId !== undefined) {
    conditions.push('d.id < ?');
    params.push(beforeId);
  }
  return [conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params];
}

/** The delivery log across places, for the console (support, operators, and gym accounts within their scope). */
@Injectable()
export class DeliveriesAdminRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Failed deliveries first, then newest first. */
  async list(filter: DeliveryFilter, offset: number, limit: number) {
    const [where, params] = deliveryWhere(filter);
    const rows: AdminDeliveryRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS}
       FROM webhook_deliveries d LEFT JOIN places p ON p.id = d.place_id
       LEFT JOIN webhook_endpoint_states b ON b.subscription_id = d.subscription_id
       ${where} ORDER BY d.status = 'failed' DESC, d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM webhook_deliveries d ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** The deliveries `list` finds, newest first by id (time-ordered), before the one with `beforeId`. */
  exportList(
    filter: DeliveryFilter,
    beforeId: string | undefined,
    limit: number,
  ): Promise<AdminDeliveryRow[]> {
    const [where, params] = deliveryWhere(filter, beforeId);
    return this.dataSource.query(
      `SELECT ${COLUMNS}
       FROM webhook_deliveries d LEFT JOIN places p ON p.id = d.place_id
       LEFT JOIN webhook_endpoint_states b ON b.subscription_id = d.subscription_id
       ${where} ORDER BY d.id DESC LIMIT ?`,
      [...params, limit],
    );
  }

  async find(id: string): Promise<AdminDeliveryDetailRow | undefined> {
    const rows: AdminDeliveryDetailRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, d.payload, d.request_id AS requestId
       FROM webhook_deliveries d LEFT JOIN places p ON p.id = d.place_id
       LEFT JOIN webhook_endpoint_states b ON b.subscription_id = d.subscription_id
       WHERE d.id = ?`,
      [id],
    );
    return rows[0];
  }

  /** Every attempt of the delivery, across its redeliveries, oldest first. */
  attempts(deliveryId: string): Promise<AttemptRow[]> {
    return this.dataSource.query(
      `SELECT number, url, status_code AS statusCode, duration_ms AS durationMs, response_body AS responseBody,
              error, created_at AS createdAt
       FROM webhook_attempts WHERE delivery_id = ? ORDER BY id`,
      [deliveryId],
    );
  }
}
