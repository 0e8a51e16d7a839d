import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source';
import { DatabaseServer, DatabaseServerModule } from './database-server';
import { Leases } from './leases';
import { Transactions } from './transactions';

@Global()
@Module({
  imports: [
    DatabaseServerModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseServerModule],
      inject: [APP_CONFIG, DatabaseServer],
      useFactory: (config: AppConfig, server: DatabaseServer) => ({
        ...buildDataSourceOptions(config, server),
        autoLoadEntities: false,
      }),
    }),
  ],
  providers: [Transactions, Leases],
  exports: [Transactions, Leases, DatabaseServerModule],
})
export class DatabaseModule {}
