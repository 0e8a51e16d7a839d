import * as mysql2 from 'mysql2';
import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseServer } from './database-server';

/**
 * What every new connection runs before any other statement. The session in UTC, so that what the database
 * stamps itself (column defaults, ON UPDATE) agrees with what the app writes (`timezone: 'Z'`) on a server whose
 * own time zone is not UTC. On a Galera node, reads wait until the node has applied every transaction the
 * cluster committed before them (`wsrep_sync_wait = 1`: SELECT, SHOW and START TRANSACTION), so that a rule
 * decided on one node sees what an instance on another node committed a moment ago.
 */
export function sessionStatement(server: DatabaseServer): string {
  return server.galera ? "SET time_zone = '+00:00', wsrep_sync_wait = 1" : "SET time_zone = '+00:00'";
}

/** mysql2 whose pools run sessionStatement on every new connection first. */
function mysql2WithSession(server: DatabaseServer): typeof mysql2 {
  const setUp = sessionStatement(server);
  return {
    ...mysql2,
    createPool: ((options: mysql2.PoolOptions) => {
      const pool = mysql2.createPool(options);
      pool.on('connection', (connection) => {
        connection.query(setUp, (error) => {
          // Never hand out a connection whose session is not set up.
          if (error) connection.destroy();
        });
      });
      return pool;
    }) as typeof mysql2.createPool,
  };
}

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
  server = DatabaseServer.standalone,
): DataSourceOptions {
  return {
    type: 'mariadb',
    driver: mysql2WithSession(server),
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
 * mysql2's formatting, except that a text given no values is sent as it is. A BatchTransaction formats each
 * statement itself and sends the round trip's text with no values, which mysql2 would otherwise scan whole for
 * placeholders (the event's body included) to find none. The same text either way.
 */
function formatUnlessNoValues(
  this: { config: { stringifyObjects?: boolean } },
  sql: string,
  values: unknown,
  timezone: string,
): string {
  if (values === undefined || values === null || (Array.isArray(values) && values.length === 0)) return sql;
  return mysql2.format(sql, values as mysql2.SqlValue[], this.config.stringifyObjects, timezone);
}

/**
 * The pool of the check-in transactions (see BatchTransaction): the same database and session as TypeORM's,
 * with multiple statements per round trip allowed. Only constant texts with placeholders run on it.
 */
export function createBatchPool(
  config: Pick<AppConfig, 'databaseUrl'> & Partial<Pick<AppConfig, 'databasePoolSize'>>,
  server = DatabaseServer.standalone,
): mysql2.Pool {
  return mysql2WithSession(server).createPool({
    uri: config.databaseUrl.replace(/^mariadb:/, 'mysql:'),
    ...SESSION,
    multipleStatements: true,
    queryFormat: formatUnlessNoValues as unknown as mysql2.PoolOptions['queryFormat'],
    connectionLimit: config.databasePoolSize ?? 20,
    maxPreparedStatements: PREPARED_STATEMENTS_PER_CONNECTION,
  });
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}
