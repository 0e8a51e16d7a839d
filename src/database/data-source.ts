import * as mysql2 from 'mysql2';
import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';

/**
 * mysql2 whose pools set every new connection's session to UTC before any other statement, so that what
 * the database stamps itself (column defaults, ON UPDATE) agrees with what the app writes (`timezone: 'Z'`)
 * on a server whose own time zone is not UTC.
 */
const mysql2InUtc: typeof mysql2 = {
  ...mysql2,
  createPool: ((options: mysql2.PoolOptions) => {
    const pool = mysql2.createPool(options);
    pool.on('connection', (connection) => {
      connection.query("SET time_zone = '+00:00'", (error) => {
        // Never hand out a connection whose clock reads another zone.
        if (error) connection.destroy();
      });
    });
    return pool;
  }) as typeof mysql2.createPool,
};

/**
 * Server-side prepared statements a connection keeps (mysql2 `execute`, see prepared-statement.ts). The app
 * prepares a few dozen constant texts; mysql2's default of 16,000 sizes each connection's statement cache up
 * front at about 0.5 MB, 20 MB of resident memory for the two pools of 20 (more with DATABASE_POOL_SIZE). A
 * text beyond this many is prepared again when it is next used, nothing more.
 */
const PREPARED_STATEMENTS_PER_CONNECTION = 128;

/** What every connection of the app agrees on, whichever pool it comes from. */
const SESSION = {
  timezone: 'Z',
  charset: 'utf8mb4_unicode_ci',
  supportBigNumbers: true,
  bigNumberStrings: true,
  // DATE columns (birthdays) as 'YYYY-MM-DD' text: read as Date objects they shift a day in a process
  // whose time zone is west of UTC (TZ=America/Sao_Paulo).
  dateStrings: ['DATE' as const],
};

/** Connection options shared by the app, the TypeORM CLI (`ormconfig.ts`) and the scripts. */
export function buildDataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl'> & Partial<Pick<AppConfig, 'databasePoolSize'>>,
): DataSourceOptions {
  return {
    type: 'mariadb',
    driver: mysql2InUtc,
    connectorPackage: 'mysql2',
    url: config.databaseUrl.replace(/^mariadb:/, 'mysql:'),
    entities: [join(__dirname, '..', '**', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    timezone: SESSION.timezone,
    charset: SESSION.charset,
    supportBigNumbers: SESSION.supportBigNumbers,
    bigNumberStrings: SESSION.bigNumberStrings,
    extra: {
      connectionLimit: config.databasePoolSize ?? 20,
      dateStrings: SESSION.dateStrings,
      maxPreparedStatements: PREPARED_STATEMENTS_PER_CONNECTION,
    },
  };
}

/**
 * The pool of the check-in transactions (see BatchTransaction): the same database and session as TypeORM's,
 * with multiple statements per round trip allowed. Only constant texts with placeholders run on it.
 */
export function createBatchPool(
  config: Pick<AppConfig, 'databaseUrl'> & Partial<Pick<AppConfig, 'databasePoolSize'>>,
): mysql2.Pool {
  return mysql2InUtc.createPool({
    uri: config.databaseUrl.replace(/^mariadb:/, 'mysql:'),
    ...SESSION,
    multipleStatements: true,
    connectionLimit: config.databasePoolSize ?? 20,
    maxPreparedStatements: PREPARED_STATEMENTS_PER_CONNECTION,
  });
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}
