import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'mysql2';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { createBatchPool } from './data-source';
import { BatchTransaction, inBatchTransaction } from './statement-batch';

/** The check-in paths' transactions, on a pool of their own (created lazily, closed at shutdown). */
@Injectable()
export class BatchTransactions implements OnApplicationShutdown {
  private pool?: Pool;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  run<T>(work: (tx: BatchTransaction) => Promise<T>): Promise<T> {
    this.pool ??= createBatchPool(this.config);
    return inBatchTransaction(this.pool, work);
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
