import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Transactions } from '../../database/transactions';
import { Metrics } from './metrics';

/** What the gauges read of mysql2's pool (its internals: mysql2 exposes no counters of its own). */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

/**
 * The database pools' connections in use, idle and waited for, read when Prometheus scrapes: `main` (TypeORM's)
 * and `check_ins` (the check-in transactions', see Transactions.batch; it opens with the first check-in).
 */
@Injectable()
export class DatabasePoolMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly transactions: Transactions,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.metrics.gaugeAtScrape(
      {
        name: 'db_pool_connections',
        help: 'Database pool connections by pool (main, check_ins) and state: in_use, idle, and max (the pool size)',
        labelNames: ['pool', 'state'] as const,
      },
      (gauge) => {
        for (const [name, pool] of this.pools()) {
          const all = pool._allConnections?.length ?? 0;
          const idle = pool._freeConnections?.length ?? 0;
          gauge.set({ pool: name, state: 'in_use' }, all - idle);
          gauge.set({ pool: name, state: 'idle' }, idle);
          if (pool.config?.connectionLimit)
            gauge.set({ pool: name, state: 'max' }, pool.config.connectionLimit);
        }
      },
    );
    this.metrics.gaugeAtScrape(
      {
        name: 'db_pool_waiting_requests',
        help: 'Queries (main) or transactions (check_ins) waiting for a free database connection',
        labelNames: ['pool'] as const,
      },
      (gauge) => {
        for (const [name, pool] of this.pools())
          gauge.set({ pool: name }, pool._connectionQueue?.length ?? 0);
      },
    );
  }

  private pools(): [string, Mysql2PoolInternals][] {
    const main = (this.dataSource.driver as unknown as { pool?: Mysql2PoolInternals }).pool;
    const checkIns = this.transactions.openBatchPool as Mysql2PoolInternals | undefined;
    return [
      ...(main ? [['main', main] as [string, Mysql2PoolInternals]] : []),
      ...(checkIns ? [['check_ins', checkIns] as [string, Mysql2PoolInternals]] : []),
    ];
  }
}
