import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCsvResponse, csvFile } from '../../common/http/csv';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth } from '../auth/auth.decorators';
import { AuditService } from './audit.service';
import { AuditEntryDto, AuditExportQueryDto, AuditPageDto, AuditQueryDto } from './dto/audit.dto';

@ApiTags('Audit')
@Controller('admin/audit')
@AdminAuth()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: 'The audit log: every change and key reveal, newest first (operators only)',
    description:
      'Written in the same transaction as the change it records, whoever made it: an account (console), ' +
      'the admin token, or a place through its bearer token (webhook changes).',
  })
  @ApiOkResponse({ type: AuditPageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  listAuditEntries(@Query() query: AuditQueryDto): Promise<Page<AuditEntryDto>> {
    return this.audit.list(query);
  }

  @Get('export')
  @ApiOperation({
    summary: 'The entries of the audit log, with its filters, as a CSV file (every page), newest first',
    description: 'UTF-8 with a byte-order mark, comma-separated, one header line; `details` as JSON.',
  })
  @ApiCsvResponse(
    'audit.csv',
    'id,at,actor_type,actor_id,actor_label,actor_name,action,target_type,target_id,target_label,place_name,' +
      'address,request_id,details\r\n' +
      '1042,2026-11-22T07:02:11.412-03:00,account,12,ana@acme.example,Ana,place.key.rotate,place,' +
      '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61,Acme Paulista,Acme Paulista,203.0.113.7,' +
      '5f0c3a6e-2b1d-4c8f-9a7b-6c5d4e3f2a1b,\r\n',
  )
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  exportAuditEntries(@Query() query: AuditExportQueryDto): StreamableFile {
    return csvFile('audit.csv', this.audit.export(query));
  }
}
