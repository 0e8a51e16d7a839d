import { Inject, Injectable } from '@nestjs/common';
import { invalidParameter } from '../../common/errors/domain-error';
import { Page, pageOf, paging } from '../../common/http/paging';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { InvalidInstantError, parseBound } from '../control-panel/visit-window';
import { AuditRepository } from './audit.repository';
import { AuditEntryDto, AuditQueryDto } from './dto/audit.dto';

/** The audit log as operators read it. */
@Injectable()
export class AuditService {
  constructor(
    private readonly repository: AuditRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: AuditQueryDto): Promise<Page<AuditEntryDto>> {
    const page = paging(query);
    const { rows, total } = await this.repository.list(
      {
        actor: query.actor,
        action: query.action,
        targetType: query.target_type,
        targetId: query.target_id,
        from: query.from === undefined ? undefined : this.bound(query.from, 'from', false),
        to: query.to === undefined ? undefined : this.bound(query.to, 'to', true),
      },
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => ({
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
      })),
      page,
      total,
    );
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
