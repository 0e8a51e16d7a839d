import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { BatchTransactions } from './batch-transactions';
import { buildDataSourceOptions } from './data-source';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...buildDataSourceOptions(config), autoLoadEntities: false }),
    }),
  ],
  providers: [BatchTransactions],
  exports: [BatchTransactions],
})
export class DatabaseModule {}
