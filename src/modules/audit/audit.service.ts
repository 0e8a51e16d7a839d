import { Inject, Injectable } from '@nestjs/common';
import { invalidParameter } from '../../common/errors/domain-error';
import { CSV_BATCH, csvLines } from '../../common/http/csv';
import { Page, pageOf, paging } from '../../common/http/paging';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { InvalidInstantError, parseBound } from '../control-panel/visit-window';
import { AuditFilter, AuditRepository, AuditRow } from './audit.repository';
import { AuditEntryDto, AuditExportQueryDto, AuditQueryDto } from './dto/audit.dto';

/** The audit log as operators read it. */
@Injectable()
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: AuditQueryDto): Promise<Page<AuditEntryDto>> {
    const page = paging(query);
    const { rows, total } = await this.repository.list(this.filter(query), page.offset, page.pageSize);
    return pageOf(
      rows.map((row) => this.entry(row)),
      page,
      total,
    );
  }

  /** The entries the list finds, as CSV lines, newest first; the dates are checked before the first line. */
  export(query: AuditExportQueryDto): AsyncGenerator<string> {
    const filter = this.filter(query);
    return csvLines(
      [
        'id',
        'at',
        'actor_type',
        'actor_id',
        'actor_label',
        'actor_name',
        'action',
        'target_type',
        'target_id',
        'target_label',
        'place_name',
        'address',
        'request_id',
        'details',
      ],
      (after: AuditRow | undefined) => this.repository.exportList(filter, after?.id, CSV_BATCH),
      (row) => {
        const entry = this.entry(row);
        return [
          entry.id,
          entry.at,
          entry.actor_type,
          entry.actor_id,
          entry.actor_label,
          entry.actor_name,
          entry.action,
          entry.target_type,
          entry.target_id,
          entry.target_label,
          entry.place_name,
          entry.address,
          entry.request_id,
          entry.details === null ? null : JSON.stringify(entry.details),
        ];
      },
    );
  }

  private filter(query: AuditExportQueryDto): AuditFilter {
    return {
      actor: query.actor,
      action: query.action,
      targetType: query.target_type,
      targetId: query.target_id,
      from: query.from === undefined ? undefined : this.bound(query.from, 'from', false),
      to: query.to === undefined ? undefined : this.bound(query.to, 'to', true),
    };
  }

  private entry(row: AuditRow): AuditEntryDto {
    return {
      id: String(row.id),
      at: formatInZone(row.at, this.config.businessTimezone),
      actor_type: row.actorType,
      actor_id: row.actorId,
      actor_label: row.actorLabel,
      action: row.action,
      target_type: row.targetType,
      target_id: row.targetId,
      address: row.address,
      request_id: row.requestId,
      details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
      target_label: row.targetLabel,
      place_name: row.placeName,
      actor_name: row.actorName,
    };
  }

  private bound(value: string, field: 'from' | 'to', endOfDay: boolean): Date {
    try {
      return parseBound(value, this.config.businessTimezone, endOfDay);
    } catch (error) {
      if (!(error instanceof InvalidInstantError)) throw error;
      throw invalidParameter('field.dateOrInstant', { field });
    }
  }
}
