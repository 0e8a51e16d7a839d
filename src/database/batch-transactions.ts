import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'mysql2';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { createBatchPool } from './data-source';
import { BatchTransaction, inBatchTransaction, IsolationLevel } from './statement-batch';

/** The check-in paths' transactions, on a pool of their own (created lazily, closed at shutdown). */
@Injectable()
export class BatchTransactions implements OnApplicationShutdown {
  private pool?: Pool;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** `isolation`: the transaction's own level (the session's, REPEATABLE READ, otherwise). */
  run<T>(work: (tx: BatchTransaction) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    this.pool ??= createBatchPool(this.config);
    return inBatchTransaction(this.pool, work, isolation);
  }

  /** The pool, once a transaction has opened it (for the metrics). */
  get openPool(): Pool | undefined {
    return this.pool;
  }

  async onApplicationShutdown(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await new Promise<void>((resolve) => pool.end(() => resolve()));
  }
}
