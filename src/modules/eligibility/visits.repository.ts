import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface VisitRow {
  id: string;
  beneficiaryCode: string;
  cpf: string;
  planCode: string | null;
  createdAt: Date;
  /** The gym system's own code for the member at the visit's place (Wellhub's `custom_code`), if any. */
  customCode: string | null;
}

export interface VisitListRow extends VisitRow {
  placeId: string;
  placeName: string | null;
}

export interface VisitFilter {
  placeId?: string;
  from?: Date;
  to?: Date;
}

/** The WHERE of the visit list and its export (before the visit `beforeId`, for the export's next batch). */
function visitWhere(filter: VisitFilter, beforeId?: string): [string, unknown[]] {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.placeId !== undefined) {
    conditions.push('v.place_id = ?');
    params.push(filter.placeId);
  }
  if (filter.from) {
    conditions.push('v.created_at >= ?');
    params.push(filter.from);
  }
  if (filter.to) {
    conditions.push('v.created_at < ?');
    params.push(filter.to);
  }
  if (beforeId !== undefined) {
    conditions.push('v.id < ?');
    params.push(beforeId);
  }
  return [conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params];
}

/**
 * The visits as the control panel reads them: per place, per beneficiary, all of them (lists and exports), with
 * the names of their place and plan. Written only by EligibilityRepository (an admitted check-in).
 */
@Injectable()
export class VisitsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Visits of a beneficiary since `since`, and the time of the latest one (through its own index). */
  async beneficiaryVisitCount(
    beneficiaryId: number,
    since: Date,
  ): Promise<{ visits: number; lastVisitAt: Date | null }> {
    const [row]: { visits: string; last: Date | null }[] = await this.dataSource.query(
      `SELECT (SELECT COUNT(*) FROM visits WHERE beneficiary_id = ? AND created_at >= ?) AS visits,
              (SELECT MAX(created_at) FROM visits WHERE beneficiary_id = ?) AS last`,
      [beneficiaryId, since, beneficiaryId],
    );
    return { visits: Number(row.visits), lastVisitAt: row.last };
  }

  /** A beneficiary's visits, newest first, with their place's name. */
  async visitsOfBeneficiary(beneficiaryId: number, offset: number, limit: number) {
    const rows: {
      id: string;
      placeId: string;
      placeName: string | null;
      planCode: string | null;
      createdAt: Date;
      customCode: string | null;
    }[] = await this.dataSource.query(
      `SELECT v.id, v.place_id AS placeId, p.name AS placeName, pl.code AS planCode, v.created_at AS createdAt,
              mc.custom_code AS customCode
         FROM visits v LEFT JOIN places p ON p.id = v.place_id LEFT JOIN plans pl ON pl.id = v.plan_id
         LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
         WHERE v.beneficiary_id = ? ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [beneficiaryId, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      'SELECT COUNT(*) AS total FROM visits WHERE beneficiary_id = ?',
      [beneficiaryId],
    );
    return { rows, total: Number(total) };
  }

  /** Visits of every place (or one), newest first. */
  async listVisits(filter: VisitFilter, offset: number, limit: number) {
    const [where, params] = visitWhere(filter);
    const rows: VisitListRow[] = await this.dataSource.query(
      `SELECT v.id, v.place_id AS placeId, p.name AS placeName, b.code AS beneficiaryCode, b.cpf,
              pl.code AS planCode, v.created_at AS createdAt, mc.custom_code AS customCode
       FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id LEFT JOIN places p ON p.id = v.place_id
       LEFT JOIN plans pl ON pl.id = v.plan_id
       LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
       ${where} ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM visits v ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** The visits `listVisits` finds, newest first by id, before the one with `beforeId` (none: from the newest). */
  exportVisits(filter: VisitFilter, beforeId: string | undefined, limit: number): Promise<VisitListRow[]> {
    const [where, params] = visitWhere(filter, beforeId);
    return this.dataSource.query(
      `SELECT v.id, v.place_id AS placeId, p.name AS placeName, b.code AS beneficiaryCode, b.cpf,
              pl.code AS planCode, v.created_at AS createdAt, mc.custom_code AS customCode
       FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id LEFT JOIN places p ON p.id = v.place_id
       LEFT JOIN plans pl ON pl.id = v.plan_id
       LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
       ${where} ORDER BY v.id DESC LIMIT ?`,
      [...params, limit],
    );
  }

  async visitsOfPlace(
    placeId: string,
    from: Date | undefined,
    to: Date | undefined,
    offset: number,
    limit: number,
  ): Promise<{ rows: VisitRow[]; total: number }> {
    const conditions = ['v.place_id = ?'];
    const params: unknown[] = [placeId];
    if (from) {
      conditions.push('v.created_at >= ?');
      params.push(from);
    }
    if (to) {
      conditions.push('v.created_at < ?');
      params.push(to);
    }
    const where = conditions.join(' AND ');
    const rows: VisitRow[] = await this.dataSource.query(
      `SELECT v.id, b.code AS beneficiaryCode, b.cpf, pl.code AS planCode, v.created_at AS createdAt,
              mc.custom_code AS customCode
       FROM visits v JOIN beneficiaries b ON b.id = v.beneficiary_id LEFT JOIN plans pl ON pl.id = v.plan_id
       LEFT JOIN member_custom_codes mc ON mc.beneficiary_id = v.beneficiary_id AND mc.place_id = v.place_id
       WHERE ${where} ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.dataSource.query(
      `SELECT COUNT(*) AS total FROM visits v WHERE ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }
}
