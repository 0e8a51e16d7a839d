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
  targetLabel: string | null;
  placeName: string | null;
  actorName: string | null;
}

/**
 * What the console shows for ids: the target's name as it is now (a place's, a partner's, an account's, a plan's;
 * for a webhook or a delivery, its place's), the name of the place an entry concerns (its target or the
 * `place_id` of its details), and an account's or a place's name for the actor. Beneficiaries stay named by code.
 */
const NAMES = `LEFT JOIN places tp ON a.target_type = 'place' AND tp.id = a.target_id
  LEFT JOIN partners tpt ON a.target_type = 'partner' AND tpt.id = a.target_id
  LEFT JOIN accounts tac ON a.target_type = 'account' AND tac.id = a.target_id
  LEFT JOIN plans tpl ON a.target_type = 'plan' AND tpl.code = a.target_id
  LEFT JOIN benefit_plans tbp ON a.target_type = 'benefit_plan' AND tbp.code = a.target_id
  LEFT JOIN places dp ON dp.id = JSON_VALUE(a.details, '$.place_id')
  LEFT JOIN accounts aac ON a.actor_type = 'account' AND aac.id = a.actor_id
  LEFT JOIN places ap ON a.actor_type = 'place' AND ap.id = a.actor_id`;

const COLUMNS = `a.id, a.at, a.actor_type AS actorType, a.actor_id AS actorId, a.actor_label AS actorLabel,
  a.action, a.target_type AS targetType, a.target_id AS targetId, a.address, a.request_id AS requestId, a.details,
  CASE a.target_type WHEN 'place' THEN tp.name WHEN 'partner' THEN tpt.name
    WHEN 'account' THEN tac.name WHEN 'plan' THEN tpl.name WHEN 'benefit_plan' THEN tbp.name
    WHEN 'webhook' THEN dp.name WHEN 'delivery' THEN dp.name END AS targetLabel,
  COALESCE(tp.name, dp.name) AS placeName, COALESCE(aac.name, ap.name) AS actorName`;

/** The WHERE of the audit list and its export (before the entry `beforeId`, for the export's next batch). */
function auditWhere(filter: AuditFilter, beforeId?: string): [string, unknown[]] {
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
  if (beforeId !== undefined) {
    conditions.push('a.id < ?');
    params.push(beforeId);
  }
  return [conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params];
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
    const [where, params] = auditWhere(filter);
    const rows: AuditRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM audit_entries a ${NAMES} ${where} ORDER BY a.at DESC, a.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM audit_entries a ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** The entries `list` finds, newest first by id, before the one with `beforeId`. */
  exportList(filter: AuditFilter, beforeId: string | undefined, limit: number): Promise<AuditRow[]> {
    const [where, params] = auditWhere(filter, beforeId);
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM audit_entries a ${NAMES} ${where} ORDER BY a.id DESC LIMIT ?`,
      [...params, limit],
    );
  }
}
