import { Global, Module } from '@nestjs/common';
import { AuditLog } from './audit-log';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit log: every change and key reveal, written in the change's own transaction; read by operators. */
@Global()
@Module({
  controllers: [AuditController],
  providers: [AuditLog, AuditRepository, AuditService],
  exports: [AuditLog],
})
export class AuditModule {}
