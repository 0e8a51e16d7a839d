// Fails when the entities and the migrations have drifted: runs every migration on a scratch database,
// then asks TypeORM which statements `migration:generate` would write. Any statement is drift.
import { withScratchDatabase } from './scratch-database';

async function main(): Promise<void> {
  await withScratchDatabase('gym_drift_check', async (source) => {
    await source.runMigrations();
    const pending = await source.driver.createSchemaBuilder().log();
    if (pending.upQueries.length > 0) {
      console.error('Entities and migrations have drifted; `npm run migration:generate` would write:');
      for (const query of pending.upQueries) console.error(`  ${query.query}`);
      process.exitCode = 1;
    } else {
      console.log('Migrations match the entities.');
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
