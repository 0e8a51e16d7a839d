import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions, databaseName } from './data-source';

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

/** Runs pending migrations under a database lock, so that several processes starting at once take turns. */
export async function runMigrations(config: Pick<AppConfig, 'databaseUrl'>): Promise<string[]> {
  const source = new DataSource({ ...buildDataSourceOptions(config), extra: { connectionLimit: 1 } });
  await source.initialize();
  try {
    await source.query("SELECT GET_LOCK('gym_integration_migrations', 60)");
    const applied = await source.runMigrations({ transaction: 'each' });
    await source.query("SELECT RELEASE_LOCK('gym_integration_migrations')");
    return applied.map((migration) => migration.name);
  } finally {
    await source.destroy();
  }
}

export async function prepareDatabase(config: Pick<AppConfig, 'databaseUrl'>): Promise<void> {
  await ensureDatabase(config);
  await runMigrations(config);
}
