import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCsvResponse, csvFile } from '../../common/http/csv';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import { VisitListItemDto, VisitListPageDto, VisitsExportQueryDto, VisitsQueryDto } from './dto/places.dto';
import { PlacesAdminService } from './places-admin.service';

@ApiTags('Control panel')
@Controller('admin/visits')
@AdminAuth()
export class VisitsAdminController {
  constructor(private readonly places: PlacesAdminService) {}

  @Get()
  @Roles('support')
  @ApiOperation({ summary: 'Visits of every place (or one), newest first; CPFs masked for support' })
  @ApiOkResponse({ type: VisitListPageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  list(@CurrentCaller() caller: Caller, @Query() query: VisitsQueryDto): Promise<Page<VisitListItemDto>> {
    return this.places.allVisits(caller, query);
  }

  @Get('export')
  @Roles('support')
  @ApiOperation({
    summary: 'The visits of the list, with its filters, as a CSV file (every page), newest first',
    description: 'UTF-8 with a byte-order mark, comma-separated, one header line; CPFs masked for support.',
  })
  @ApiCsvResponse(
    'visits.csv',
    'id,created_at,place_id,place_name,beneficiary_code,cpf,plan_code\r\n' +
      '90211,2026-11-22T07:02:11.412-03:00,5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61,Acme Paulista,EQ2B3FBK,11144477735,B0KR5QWH\r\n',
  )
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  export(@CurrentCaller() caller: Caller, @Query() query: VisitsExportQueryDto): StreamableFile {
    return csvFile('visits.csv', this.places.exportVisits(caller, query));
  }
}
