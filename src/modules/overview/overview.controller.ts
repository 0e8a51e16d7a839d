import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import { OverviewDto, OverviewQueryDto } from './dto/overview.dto';
import { OverviewService } from './overview.service';

@ApiTags('Control panel: overview')
@Controller('admin/overview')
@AdminAuth()
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get()
  @Roles('support', 'gym')
  @ApiOperation({
    summary:
      "The console's home: check-ins, deliveries, endpoints in trouble and member check-ins at a glance",
    description:
      "Aggregates within the caller's scope (a gym account: its places; `place_id`: one place). Check-in " +
      'answers are counted per hour as they are sent (validate, register and confirmation; a refusal by its ' +
      'label), so the series need no scan of the visits. Delivery figures cover the deliveries created in the ' +
      'last 24 hours, plus every delivery waiting now.',
  })
  @ApiOkResponse({ type: OverviewDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  get(@CurrentCaller() caller: Caller, @Query() query: OverviewQueryDto): Promise<OverviewDto> {
    return this.overview.overview(caller, query);
  }
}
