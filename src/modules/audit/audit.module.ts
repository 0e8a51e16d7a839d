import { Global, Module } from '@nestjs/common';
import { AuditLog } from './audit-log';

/** The audit log: every change and key reveal, written in the change's own transaction. */
@Global()
@Module({
  providers: [AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}
