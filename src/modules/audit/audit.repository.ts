import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { escapeLike } from '../../database/like';
import { ActorType } from './entities/audit-entry.entity';

export interface AuditFilter {
  /** An actor id or label (account id or e-mail, place id or name), or an actor type. */
  actor?: string;
  /** An action, or the start of one (`place` matches `place.create` and `place.key.rotate`). */
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
}

export interface AuditRow {
  id: string;
  at: Date;
  actorType: ActorType;
  actorId: string | null;
  actorLabel: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  address: string | null;
  requestId: string | null;
  details: string | null;
}

/** Reads the audit log; entries are written by AuditLog inside the transactions of the changes. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Newest first. */
  async list(
    filter: AuditFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: AuditRow[]; total: number }> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.actor !== undefined) {
      conditions.push('(a.actor_id = ? OR a.actor_label = ? OR a.actor_type = ?)');
      params.push(filter.actor, filter.actor, filter.actor);
    }
    if (filter.action !== undefined) {
      conditions.push('(a.action = ? OR a.action LIKE ?)');
      params.push(filter.action, `${escapeLike(filter.action)}.%`);
    }
    if (filter.targetType !== undefined) {
      conditions.push('a.target_type = ?');
      params.push(filter.targetType);
    }
    if (filter.targetId !== undefined) {
      conditions.push('a.target_id = ?');
      params.push(filter.targetId);
    }
    if (filter.from) {
      conditions.push('a.at >= ?');
      params.push(filter.from);
    }
    if (filter.to) {
      conditions.push('a.at < ?');
      params.push(filter.to);
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows: AuditRow[] = await this.dataSource.query(
      `SELECT a.id, a.at, a.actor_type AS actorType, a.actor_id AS actorId, a.actor_label AS actorLabel, a.action,
              a.target_type AS targetType, a.target_id AS targetId, a.address, a.request_id AS requestId, a.details
       FROM audit_entries a ${where} ORDER BY a.at DESC, a.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM audit_entries a ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }
}
