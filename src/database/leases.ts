import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { isTransactionConflict } from './mysql-errors';

/** Where a lease's statements run: a DataSource (each statement on its own, autocommitted). */
export interface LeaseStore {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape of TypeORM's `query`
  query(sql: string, values?: unknown[]): Promise<any>;
}

/**
 * The leases' table. Created before the migrations run (they run under the `migrations` lease), the way
 * TypeORM creates its own `migrations` table; it is not an entity of the app.
 */
export const CREATE_LEASES_TABLE = `CREATE TABLE IF NOT EXISTS leases (
  name varchar(64) NOT NULL,
  holder varchar(128) NOT NULL,
  expires_at datetime(3) NOT NULL,
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`;

/**
 * Takes a free or expired lease, or renews this holder's, in one statement (the database's clock decides
 * expiry). `holder` is assigned first: the second assignment reads its new value (MariaDB and MySQL assign
 * left to right).
 */
const ACQUIRE = `INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, NOW(3) + INTERVAL ? MICROSECOND)
  ON DUPLICATE KEY UPDATE
    holder = IF(holder = VALUES(holder) OR expires_at <= NOW(3), VALUES(holder), holder),
    expires_at = IF(holder = VALUES(holder), VALUES(expires_at), expires_at)`;

/** Time kept in hand: a holder stops acting this long before the database's expiry, for clock drift. */
const SAFETY_MS = 1000;

function newHolder(): string {
  return `${hostname().slice(0, 80)}/${process.pid}/${randomBytes(6).toString('hex')}`;
}

/**
 * Something exclusive across every process and every node: a row of `leases` naming its holder until a time.
 * Taking it writes the row, so two processes that take it at once through two Galera nodes conflict at
 * certification and one of them fails; a holder that dies stops renewing and the lease is free once its time
 * is over. (MariaDB's GET_LOCK is per server: on a cluster, each node would grant it to someone.)
 */
export class Lease {
  readonly holder = newHolder();
  /** Until when (performance.now()) this holder may act on the lease. */
  private validUntil = 0;

  constructor(
    private readonly store: LeaseStore,
    readonly name: string,
    readonly ttlMs: number,
  ) {}

  /** Whether this holder may act now, as far as it last knew. */
  get held(): boolean {
    return performance.now() < this.validUntil;
  }

  /** Takes the lease (or renews it) unless another holder has it; answers whether this one holds it now. */
  async acquire(): Promise<boolean> {
    const started = performance.now();
    try {
      await this.store.query(ACQUIRE, [this.name, this.holder, this.ttlMs * 1000]);
    } catch (error) {
      // Another process wrote the row at the same moment through another node, and won.
      if (!isTransactionConflict(error)) throw error;
    }
    const [row]: { holder: string; remainingMs: string | number }[] = await this.store.query(
      `SELECT holder, TIMESTAMPDIFF(MICROSECOND, NOW(3), expires_at) / 1000 AS remainingMs
       FROM leases WHERE name = ?`,
      [this.name],
    );
    const remaining = row?.holder === this.holder ? Math.min(Number(row.remainingMs), this.ttlMs) : 0;
    this.validUntil = remaining > SAFETY_MS ? started + remaining - SAFETY_MS : 0;
    return this.held;
  }

  /** Whether this holder may act now, renewing the lease once half of its time has gone. */
  async hold(): Promise<boolean> {
    if (performance.now() < this.validUntil - this.ttlMs / 2) return true;
    return this.acquire();
  }

  /** Gives the lease up, if this holder has it. */
  async release(): Promise<void> {
    this.validUntil = 0;
    await this.store.query('DELETE FROM leases WHERE name = ? AND holder = ?', [this.name, this.holder]);
  }
}

export interface LeaseWait {
  /** The lease's time; renewed every third of it while `work` runs. */
  ttlMs: number;
  /** How long to wait for another holder to finish before giving up. */
  waitMs: number;
  /** How often to look again while waiting. */
  pollMs?: number;
}

/**
 * Runs `work` holding the lease `name`: waits for it (up to `waitMs`), keeps it renewed while `work` runs, and
 * gives it up afterwards, whatever `work` did.
 */
export async function withLease<T>(
  store: LeaseStore,
  name: string,
  { ttlMs, waitMs, pollMs = 200 }: LeaseWait,
  work: () => Promise<T>,
): Promise<T> {
  const lease = new Lease(store, name, ttlMs);
  const deadline = Date.now() + waitMs;
  while (!(await lease.acquire())) {
    if (Date.now() > deadline) {
      throw new Error(`Another process has held the lease "${name}" for over ${Math.round(waitMs / 1000)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  let renewing: Promise<unknown> = Promise.resolve();
  const renewal = setInterval(() => {
    renewing = lease.acquire().catch(() => undefined);
  }, Math.max(ttlMs / 3, 100));
  renewal.unref();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    // A renewal still on its way would take the lease again after the release.
    await renewing;
    await lease.release().catch(() => undefined);
  }
}

/** Leases on the app's database. */
@Injectable()
export class Leases {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A lease this process takes and renews itself (see Lease.hold). */
  lease(name: string, ttlMs: number): Lease {
    return new Lease(this.dataSource, name, ttlMs);
  }

  /** Runs `work` holding the lease `name` (see withLease). */
  run<T>(name: string, wait: LeaseWait, work: () => Promise<T>): Promise<T> {
    return withLease(this.dataSource, name, wait, work);
  }
}
