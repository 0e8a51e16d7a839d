import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';

/** Connection options shared by the app, the TypeORM CLI (`ormconfig.ts`) and the scripts. */
export function buildDataSourceOptions(
  config: Pick<AppConfig, 'databaseUrl'> & Partial<Pick<AppConfig, 'databasePoolSize'>>,
): DataSourceOptions {
  return {
    type: 'mariadb',
    url: config.databaseUrl.replace(/^mariadb:/, 'mysql:'),
    entities: [join(__dirname, '..', '**', '*.entity.{ts,js}')],
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
    bigNumberStrings: true,
    extra: { connectionLimit: config.databasePoolSize ?? 20 },
  };
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}
