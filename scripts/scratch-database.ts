import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/data-source';
import { ensureDatabase } from '../src/database/prepare-database';

/**
 * Runs `work` on a new empty database `<name>_<pid>` on the configured server, and drops it afterwards, whatever
 * `work` did.
 */
export async function withScratchDatabase(
  name: string,
  work: (source: DataSource) => Promise<void>,
): Promise<void> {
  const base = new URL(loadConfig().databaseUrl);
  base.pathname = `/${name}_${process.pid}`;
  const config = { databaseUrl: base.toString() };
  await ensureDatabase(config);
  const source = new DataSource(buildDataSourceOptions(config));
  await source.initialize();
  try {
    await work(source);
  } finally {
    await source.query(`DROP DATABASE \`${base.pathname.slice(1)}\``);
    await source.destroy();
  }
}
