import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions, databaseName } from './data-source';
import { detectDatabaseServer } from './database-server';
import { CREATE_LEASES_TABLE, withLease } from './leases';

export class DependencyUnavailableError extends Error {}

function describeServer(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** Creates the database when it does not exist. Fails at once, naming the URL, when MySQL is unreachable. */
export async function ensureDatabase(config: Pick<AppConfig, 'databaseUrl'>): Promise<void> {
  const url = new URL(config.databaseUrl);
  const name = databaseName(config.databaseUrl);
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Database name "${name}" must be letters, digits and _`);
  let connection;
  try {
    connection = await createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      connectTimeout: 5000,
    });
  } catch (error) {
    throw new DependencyUnavailableError(
      `Cannot reach MySQL at ${describeServer(config.databaseUrl)} (${(error as Error).message}). ` +
        'Start MariaDB/MySQL (e.g. `start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd`, ' +
        'or `docker compose -f docker/compose.yml up -d mariadb`) or set DATABASE_URL.',
    );
  }
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await connection.end();
  }
}

/**
 * TypeORM's table of schema metadata (generated columns), with a primary key: TypeORM creates it without one,
 * which a Galera cluster running with wsrep_mode=REQUIRED_PRIMARY_KEY refuses. Created here before TypeORM
 * looks for it; a database made before this gets the key added.
 */
const CREATE_TYPEORM_METADATA_TABLE = `CREATE TABLE IF NOT EXISTS typeorm_metadata (
  id int UNSIGNED NOT NULL AUTO_INCREMENT,
  \`type\` varchar(255) NOT NULL,
  \`database\` varchar(255) NULL,
  \`schema\` varchar(255) NULL,
  \`table\` varchar(255) NULL,
  \`name\` varchar(255) NULL,
  \`value\` text NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB`;

async function prepareTypeormMetadata(source: DataSource): Promise<void> {
  await source.query(CREATE_TYPEORM_METADATA_TABLE);
  const [{ keys }]: { keys: string }[] = await source.query(
    `SELECT COUNT(*) AS \`keys\` FROM information_schema.table_constraints
     WHERE table_schema = DATABASE() AND table_name = 'typeorm_metadata' AND constraint_type = 'PRIMARY KEY'`,
  );
  if (Number(keys) === 0) {
    await source.query(
      'ALTER TABLE typeorm_metadata ADD id int UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST',
    );
  }
}

/** How long the migrations' holder keeps its lease between renewals, and how long another start waits. */
const MIGRATIONS_LEASE = { ttlMs: 60_000, waitMs: 15 * 60_000 };

/**
 * Runs pending migrations under the `migrations` lease (see Lease), so that processes starting at once, through
 * any nodes of a cluster, take turns: the first runs them, the others find nothing left to run.
 */
export async function runMigrations(config: Pick<AppConfig, 'databaseUrl'>): Promise<string[]> {
  const server = await detectDatabaseServer(config);
  // Two connections: the lease is renewed on one while the migrations hold the other.
  const source = new DataSource({ ...buildDataSourceOptions(config, server), extra: { connectionLimit: 2 } });
  await source.initialize();
  try {
    await source.query(CREATE_LEASES_TABLE);
    await prepareTypeormMetadata(source);
    return await withLease(source, 'migrations', MIGRATIONS_LEASE, async () => {
      const applied = await source.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    });
  } finally {
    await source.destroy();
  }
}

export async function prepareDatabase(config: Pick<AppConfig, 'databaseUrl'>): Promise<void> {
  await ensureDatabase(config);
  await runMigrations(config);
}
