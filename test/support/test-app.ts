import { Test } from '@nestjs/testing';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { configureApp, createHttpAdapter } from '../../src/app.setup';
import { Clock } from '../../src/common/time/clock';
import { APP_CONFIG, AppConfig, loadConfig } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source';
import { prepareDatabase } from '../../src/database/prepare-database';
import { FakeClock } from './fake-clock';

export interface TestApp {
  app: NestFastifyApplication;
  http: App;
  dataSource: DataSource;
  clock: FakeClock;
  config: AppConfig;
  close(): Promise<void>;
}

/** Once per test file (jest loads this module afresh for each): the worker's database migrated and emptied. */
let prepared: Promise<void> | undefined;

/** A provider the suite replaces, e.g. a token generator that it makes collide. */
export interface ProviderOverride {
  provide: unknown;
  useValue: unknown;
}

/** The real app (same pipeline as main.ts) on this worker's own database; env and providers overridden per suite. */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: ProviderOverride[] = [],
): Promise<TestApp> {
  const config = loadConfig(env);
  prepared ??= (async () => {
    await prepareDatabase(config);
    if (config.databaseUrl === process.env.DATABASE_URL) await emptyWorkerDatabase(config);
  })();
  await prepared;
  const clock = new FakeClock();
  let builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(APP_CONFIG)
    .useValue(config)
    .overrideProvider(Clock)
    .useValue(clock);
  for (const { provide, useValue } of overrides)
    builder = builder.overrideProvider(provide).useValue(useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  configureApp(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    http: app.getHttpServer() as App,
    dataSource: app.get(DataSource),
    clock,
    config,
    close: () => app.close(),
  };
}

/**
 * A file's first app on the worker's database (not on a suite's own servers, such as a Galera cluster) starts
 * on it empty: the worker's previous file may have left deliveries due and endpoints held, which this app's
 * poller would otherwise send to that file's closed receivers while the file's first test empties the tables,
 * an attempt written after its table was emptied then showing on the row this file makes under the same id.
 */
async function emptyWorkerDatabase(config: AppConfig): Promise<void> {
  const dataSource = new DataSource({ ...buildDataSourceOptions(config), entities: [], migrations: [] });
  await dataSource.initialize();
  try {
    await truncateAll(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Empties every table but the migrations' between tests. */
export async function truncateAll(dataSource: DataSource): Promise<void> {
  const tables: { name: string }[] = await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' AND table_name <> 'migrations'`,
  );
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const { name } of tables) await runner.query(`TRUNCATE TABLE \`${name}\``);
    // TRUNCATE restarts AUTO_INCREMENT at 1: gym_ids are numbered from 100001 (migration WellhubIdentities).
    await runner.query('ALTER TABLE places AUTO_INCREMENT = 100001');
    // And member numbers are drawn again as on a fresh database, so the demo's are the documented ones.
    await runner.query('ALTER SEQUENCE beneficiary_member_numbers RESTART WITH 1');
    await runner.query('SET FOREIGN_KEY_CHECKS = 1');
  } finally {
    await runner.release();
  }
}
