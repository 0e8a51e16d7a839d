import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import { VisitListItemDto, VisitListPageDto, VisitsQueryDto } from './dto/places.dto';
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
}
