import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from './metrics';

/** What the gauges read of mysql2's pool (its internals: mysql2 exposes no counters of its own). */
interface Mysql2PoolInternals {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

/** The database pool's connections in use, idle and waited for, read when Prometheus scrapes. */
@Injectable()
export class DatabasePoolMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.metrics.gaugeAtScrape(
      {
        name: 'db_pool_connections',
        help: 'Database pool connections by state: in_use, idle, and max (the pool size)',
        labelNames: ['state'] as const,
      },
      (gauge) => {
        const pool = this.pool();
        if (!pool) return;
        const all = pool._allConnections?.length ?? 0;
        const idle = pool._freeConnections?.length ?? 0;
        gauge.set({ state: 'in_use' }, all - idle);
        gauge.set({ state: 'idle' }, idle);
        if (pool.config?.connectionLimit) gauge.set({ state: 'max' }, pool.config.connectionLimit);
      },
    );
    this.metrics.gaugeAtScrape(
      {
        name: 'db_pool_waiting_requests',
        help: 'Queries waiting for a free database connection',
      },
      (gauge) => {
        const pool = this.pool();
        if (pool) gauge.set(pool._connectionQueue?.length ?? 0);
      },
    );
  }

  private pool(): Mysql2PoolInternals | undefined {
    return (this.dataSource.driver as unknown as { pool?: Mysql2PoolInternals }).pool;
  }
}
