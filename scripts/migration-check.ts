// Fails when the entities and the migrations have drifted: runs every migration on a scratch database,
// then asks TypeORM which statements `migration:generate` would write. Any statement is drift.
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source';
import { ensureDatabase } from '../src/database/prepare-database';

async function main(): Promise<void> {
  const base = new URL(loadConfig().databaseUrl);
  base.pathname = `/gym_drift_check_${process.pid}`;
  const config = { databaseUrl: base.toString() };
  await ensureDatabase(config);
  const source = new DataSource(buildDataSourceOptions(config));
  await source.initialize();
  try {
    await source.runMigrations();
    const pending = await source.driver.createSchemaBuilder().log();
    if (pending.upQueries.length > 0) {
      console.error('Entities and migrations have drifted; `npm run migration:generate` would write:');
      for (const query of pending.upQueries) console.error(`  ${query.query}`);
      process.exitCode = 1;
    } else {
      console.log('Migrations match the entities.');
    }
  } finally {
    await source.query(`DROP DATABASE \`${base.pathname.slice(1)}\``);
    await source.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
