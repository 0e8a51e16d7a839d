// The one data source of the TypeORM CLI: `npm run migration:generate|run|revert`.
export { dataSource as default } from './src/database/data-source';
