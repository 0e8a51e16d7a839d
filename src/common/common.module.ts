import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { KeyVault } from './crypto/key-vault';
import { Clock } from './time/clock';

/** Shared services: the server clock and the key vault. */
@Global()
@Module({
  providers: [
    Clock,
    {
      provide: KeyVault,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new KeyVault(config.keyEncryptionSecret),
    },
  ],
  exports: [Clock, KeyVault],
})
export class CommonModule {}
