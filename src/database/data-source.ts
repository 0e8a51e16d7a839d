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
    // DATE columns (birthdays) as 'YYYY-MM-DD' text: read as Date objects they shift a day in a process
    // whose time zone is west of UTC (TZ=America/Sao_Paulo).
    extra: { connectionLimit: config.databasePoolSize ?? 20, dateStrings: ['DATE'] },
  };
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}
