import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth } from '../auth/auth.decorators';
import { AuditService } from './audit.service';
import { AuditEntryDto, AuditPageDto, AuditQueryDto } from './dto/audit.dto';

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
  list(@Query() query: AuditQueryDto): Promise<Page<AuditEntryDto>> {
    return this.audit.list(query);
  }
}
