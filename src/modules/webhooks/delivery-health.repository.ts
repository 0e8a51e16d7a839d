import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PlaceReach, placeReachCondition } from '../auth/caller';

/** A delivery waiting for a retry: pending or queued after an attempt that failed (also of a redelivery). */
export const RETRYING_SQL = `(d.status IN ('pending', 'queued') AND d.last_attempt_at IS NOT NULL
  AND (d.last_status_code IS NULL OR d.last_status_code NOT BETWEEN 200 AND 299))`;
/** A delivery that failed or waits for a retry: what the console's "failing" filter shows. */
export const FAILING_SQL = `(d.status = 'failed' OR ${RETRYING_SQL})`;

export interface DeliveryCounts {
  /** Deliveries created since the given time, by their status now. */
  created: number;
  delivered: number;
  failed: number;
}

export interface WaitingDeliveries {
  /** Pending or queued now, whenever created. */
  waiting: number;
  /** Of those, the ones whose previous attempt failed. */
  retrying: number;
  oldestCreatedAt: Date | null;
}

/** An endpoint (subscription) with its breaker and its deliveries since the given time. */
export interface EndpointHealthRow {
  subscriptionId: string;
  placeId: string;
  placeName: string;
  placeCode: string;
  url: string;
  active: number | string;
  failures: number | string | null;
  openUntil: Date | null;
  lastError: string | null;
  lastFailureAt: Date | null;
  deliveries: number | string;
  failed: number | string;
  retrying: number | string;
}

/**
 * What the console's overview and webhook cards say about delivery health: counts over the delivery log, the
 * endpoints in trouble, and since when an endpoint has been failing (from the attempts log). Reads only; every
 * query reaches the deliveries through a place's own index.
 */
@Injectable()
export class DeliveryHealthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async counts(reach: PlaceReach, since: Date): Promise<DeliveryCounts> {
    const [condition, params] = placeReachCondition(reach, 'p.id');
    const [row]: { created: string; delivered: string | null; failed: string | null }[] =
      await this.dataSource.query(
        `SELECT COUNT(*) AS created, SUM(d.status = 'delivered') AS delivered, SUM(d.status = 'failed') AS failed
         FROM places p JOIN webhook_deliveries d ON d.place_id = p.id AND d.created_at >= ?
         WHERE ${condition}`,
        [since, ...params],
      );
    return {
      created: Number(row.created),
      delivered: Number(row.delivered ?? 0),
      failed: Number(row.failed ?? 0),
    };
  }

  async waiting(reach: PlaceReach): Promise<WaitingDeliveries> {
    const [condition, params] = placeReachCondition(reach, 'd.place_id');
    const [row]: { waiting: string; retrying: string | null; oldest: Date | null }[] =
      await this.dataSource.query(
        `SELECT COUNT(*) AS waiting, SUM(${RETRYING_SQL}) AS retrying, MIN(d.created_at) AS oldest
       FROM webhook_deliveries d WHERE d.status IN ('pending', 'queued') AND ${condition}`,
        params,
      );
    return {
      waiting: Number(row.waiting),
      retrying: Number(row.retrying ?? 0),
      oldestCreatedAt: row.oldest,
    };
  }

  /**
   * The endpoints reached whose breaker counts failures, or whose deliveries since `since` failed or wait for a
   * retry (with `all`, every endpoint reached), most failing first.
   */
  endpoints(
    reach: PlaceReach,
    since: Date,
    options: { all: boolean; limit: number },
  ): Promise<EndpointHealthRow[]> {
    const [condition, params] = placeReachCondition(reach, 'p.id');
    const [inner, innerParams] = placeReachCondition(reach, 'dp.id');
    const troubled = options.all
      ? ''
      : 'AND (b.failures > 0 OR COALESCE(st.failed, 0) > 0 OR COALESCE(st.retrying, 0) > 0)';
    return this.dataSource.query(
      `SELECT s.id AS subscriptionId, p.id AS placeId, p.name AS placeName, p.code AS placeCode, s.url, s.active,
              b.failures, b.open_until AS openUntil, b.last_error AS lastError, b.last_failure_at AS lastFailureAt,
              COALESCE(st.deliveries, 0) AS deliveries, COALESCE(st.failed, 0) AS failed,
              COALESCE(st.retrying, 0) AS retrying
       FROM webhook_subscriptions s JOIN places p ON p.id = s.place_id
       LEFT JOIN webhook_endpoint_states b ON b.subscription_id = s.id
       LEFT JOIN (SELECT d.subscription_id, COUNT(*) AS deliveries, SUM(d.status = 'failed') AS failed,
                         SUM(${RETRYING_SQL}) AS retrying
                  FROM places dp JOIN webhook_deliveries d ON d.place_id = dp.id AND d.created_at >= ?
                  WHERE ${inner} GROUP BY d.subscription_id) st ON st.subscription_id = s.id
       WHERE ${condition} ${troubled}
       ORDER BY COALESCE(b.failures, 0) DESC, COALESCE(st.failed, 0) + COALESCE(st.retrying, 0) DESC, p.name, s.id
       LIMIT ?`,
      [since, ...innerParams, ...params, options.limit],
    );
  }

  /**
   * When each endpoint started failing: its first failed attempt after its last successful one, to its current
   * URL, among the deliveries created since `since` (null when none is found there). "After" is by time, then by
   * attempt id: the attempts of one batch share their time, and are logged in the order their answers came.
   */
  async failingSince(
    endpoints: { subscriptionId: string; placeId: string; url: string }[],
    since: Date,
  ): Promise<Map<string, Date | null>> {
    const found = new Map<string, Date | null>();
    for (const endpoint of endpoints) {
      const [row]: { firstFailure: Date | null }[] = await this.dataSource.query(
        `SELECT MIN(a.created_at) AS firstFailure
         FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
         LEFT JOIN (SELECT ok.created_at, ok.id
                    FROM webhook_deliveries od JOIN webhook_attempts ok ON ok.delivery_id = od.id
                    WHERE od.place_id = ? AND od.created_at >= ? AND od.subscription_id = ? AND ok.url = ?
                      AND ok.status_code BETWEEN 200 AND 299
                    ORDER BY ok.created_at DESC, ok.id DESC LIMIT 1) last_ok ON TRUE
         WHERE d.place_id = ? AND d.created_at >= ? AND d.subscription_id = ? AND a.url = ?
           AND (a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)
           AND (last_ok.id IS NULL OR (a.created_at, a.id) > (last_ok.created_at, last_ok.id))`,
        [
          endpoint.placeId,
          since,
          endpoint.subscriptionId,
          endpoint.url,
          endpoint.placeId,
          since,
          endpoint.subscriptionId,
          endpoint.url,
        ],
      );
      found.set(endpoint.subscriptionId, row?.firstFailure ?? null);
    }
    return found;
  }
}
