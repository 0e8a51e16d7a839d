import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'mysql2';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { createBatchPool } from './data-source';
import { DatabaseServer } from './database-server';
import { retryTransaction } from './mysql-errors';
import { BatchTransaction, inBatchTransaction, IsolationLevel } from './statement-batch';

export interface TransactionOptions {
  /** The transaction's own level (the session's, REPEATABLE READ, otherwise). */
  isolation?: IsolationLevel;
}

/**
 * Every transaction of the service starts here, so that none forgets the rules that make it exact on one server
 * and on a Galera cluster alike:
 * - `work` runs again from its start, up to TRANSACTION_ATTEMPTS times, when the transaction loses a conflict at
 *   any statement, COMMIT included (retryTransaction): a deadlock here, a certification failure on Galera. It
 *   must not do anything outside the database that it could not do twice.
 * - nothing is answered before COMMIT has succeeded: `run` and `batch` resolve only after it.
 *
 * `run` hands `work` a TypeORM EntityManager, for everything but the check-in hot path. `batch` hands it a
 * BatchTransaction on a pool of its own (multiple statements per round trip), for the paths that record visits
 * and member check-ins, measured to need it; on Galera it sends one statement per round trip (see
 * BatchTransaction).
 */
@Injectable()
export class Transactions implements OnApplicationShutdown {
  private pool?: Pool;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly server: DatabaseServer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  run<T>(work: (manager: EntityManager) => Promise<T>, { isolation }: TransactionOptions = {}): Promise<T> {
    return retryTransaction(() =>
      isolation ? this.dataSource.transaction(isolation, work) : this.dataSource.transaction(work),
    );
  }

  batch<T>(work: (tx: BatchTransaction) => Promise<T>, { isolation }: TransactionOptions = {}): Promise<T> {
    this.pool ??= createBatchPool(this.config, this.server);
    const pool = this.pool;
    return retryTransaction(() =>
      inBatchTransaction(pool, work, { isolation, oneStatementPerRoundTrip: this.server.galera }),
    );
  }

  /** The batch pool, once a transaction has opened it (for the metrics). */
  get openBatchPool(): Pool | undefined {
    return this.pool;
  }

  async onApplicationShutdown(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await new Promise<void>((resolve) => pool.end(() => resolve()));
  }
}
