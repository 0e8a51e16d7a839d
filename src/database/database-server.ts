import { Global, Module } from '@nestjs/common';
import { createConnection } from 'mysql2/promise';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/**
 * What the service must know of the server behind DATABASE_URL before it opens its pools: whether it is a node
 * of a Galera cluster (`wsrep_on`). There, every session waits for the node to have applied what the cluster
 * committed before each read (`wsrep_sync_wait`), and a transaction sends one statement per round trip (see
 * BatchTransaction).
 */
export class DatabaseServer {
  constructor(readonly galera: boolean) {}

  static readonly standalone = new DatabaseServer(false);
}

/** Asks the server once, on a connection of its own. MySQL, and MariaDB built without wsrep, are standalone. */
export async function detectDatabaseServer(config: Pick<AppConfig, 'databaseUrl'>): Promise<DatabaseServer> {
  const url = new URL(config.databaseUrl);
  const connection = await createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    connectTimeout: 5000,
  });
  try {
    const [rows] = await connection.query("SHOW GLOBAL VARIABLES LIKE 'wsrep_on'");
    const value = (rows as { Value?: string }[])[0]?.Value;
    return new DatabaseServer(value === 'ON');
  } finally {
    await connection.end();
  }
}

/** The DatabaseServer of the app's DATABASE_URL, for the pools and the transactions. */
@Global()
@Module({
  providers: [
    {
      provide: DatabaseServer,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => detectDatabaseServer(config),
    },
  ],
  exports: [DatabaseServer],
})
export class DatabaseServerModule {}
