// The one data source of the TypeORM CLI: `npm run migration:generate|run|revert`.
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source';

export default new DataSource(buildDataSourceOptions(loadConfig()));
