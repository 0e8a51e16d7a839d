import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Recomputes the summary columns from the tables they summarize; `WHERE` picks the places. */
const REFRESH = `UPDATE places p SET
    p.check_in_plans = (SELECT JSON_ARRAYAGG(JSON_OBJECT('id', pl.id, 'code', pl.code, 'tier', pl.tier))
                          FROM plans pl WHERE pl.place_id = p.id AND pl.deleted_at IS NULL),
    p.check_in_webhook = EXISTS(SELECT 1 FROM webhook_subscriptions s
                                 WHERE s.place_id = p.id AND s.type = 'CHECKIN' AND s.active = 1),
    p.check_in_subscription_id = (SELECT s.id FROM webhook_subscriptions s
                                   WHERE s.place_id = p.id AND s.type = 'CHECKIN' AND s.active = 1),
    p.check_in_webhook_url = (SELECT s.url FROM webhook_subscriptions s
                               WHERE s.place_id = p.id AND s.type = 'CHECKIN' AND s.active = 1),
    p.wellhub_webhook = EXISTS(SELECT 1 FROM webhook_subscriptions s
                                WHERE s.place_id = p.id AND s.type = 'WELLHUB_CHECKIN' AND s.active = 1)`;

/**
 * Keeps `places.check_in_plans`, `places.check_in_webhook` (with the CHECKIN subscription's id and URL,
 * `check_in_subscription_id` and `check_in_webhook_url`; one per place at most, by the subscriptions' unique key)
 * and `places.wellhub_webhook` equal to what the plans and webhook subscriptions tables say, so the check-in
 * query reads them from the place's row instead of running two subqueries per check-in (a fifth of its database
 * time) and joining the subscription at every register of a subscribed gym (20 to 40 µs of the server's CPU).
 * Every change to a place's plans or subscriptions refreshes its row right after, in the same transaction where
 * the change has one; each start refreshes them all, which also picks up plans edited by hand in the database.
 *
 * A transaction that changes a place's plans or subscriptions does it through `change`, which locks the
 * place's row first. Without the lock two such transactions each took a shared lock on the place's row (the
 * foreign key check of their insert, the refresh's reading of the plans' index with its gap locks) and then
 * both wanted the row exclusively for the refresh: a deadlock, and 500, for most of 8 concurrent writes. Locking the row first puts every writer of
 * a place in one queue, in the same order (place, then plans or subscriptions, then the summary).
 */
@Injectable()
export class PlaceSummaryRepository implements OnApplicationBootstrap {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The one way to change a place's plans or webhook subscriptions, in the caller's transaction `manager`: the
   * place's row locked first, then `change`, then the place's summary rewritten, so check-ins never read a
   * summary that disagrees with the tables.
   */
  async change<T>(placeId: string, manager: EntityManager, change: () => Promise<T>): Promise<T> {
    await manager.query('SELECT id FROM places WHERE id = ? FOR UPDATE', [placeId]);
    const result = await change();
    await this.refresh(placeId, manager);
    return result;
  }

  /** Rewrites one place's summary; outside `change` only for rows written without the service (the demo's seed). */
  async refresh(placeId: string, executor: DataSource | EntityManager = this.dataSource): Promise<void> {
    await executor.query(`${REFRESH} WHERE p.id = ?`, [placeId]);
  }

  async refreshAll(): Promise<void> {
    await this.dataSource.query(REFRESH);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.refreshAll();
  }
}
