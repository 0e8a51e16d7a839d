import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/time/clock';
import { AuditActor } from '../auth/caller';
import { AuditEntryEntity } from './entities/audit-entry.entity';

/** What a change did, for its audit entry. */
export interface AuditRecord {
  action: string;
  targetType?: string;
  targetId?: string | number | null;
  /** What changed; never a key, a secret or a password. */
  details?: Record<string, unknown>;
}

/**
 * Writes audit entries. Always inside the transaction of the change it records (`manager`), so a change is
 * never left without its entry, nor an entry without its change.
 */
@Injectable()
export class AuditLog {
  constructor(private readonly clock: Clock) {}

  async write(manager: EntityManager, actor: AuditActor, record: AuditRecord): Promise<void> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error(`Audit entry ${record.action} written outside the transaction of its change`);
    }
    await manager.insert(AuditEntryEntity, {
      at: this.clock.now(),
      actorType: actor.type,
      actorId: actor.id,
      actorLabel: actor.label.slice(0, 255),
      action: record.action,
      targetType: record.targetType ?? null,
      targetId: record.targetId === undefined || record.targetId === null ? null : String(record.targetId),
      address: actor.address?.slice(0, 45) ?? null,
      requestId: actor.requestId?.slice(0, 64) ?? null,
      details:
        record.details && Object.keys(record.details).length > 0 ? JSON.stringify(record.details) : null,
    });
  }
}
