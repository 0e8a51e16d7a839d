import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { BearerAuth, CurrentPlace } from '../auth/auth.decorators';
import { AuthenticatedPlace } from '../auth/auth.types';
import { PLAN_CODE_QUERY_MAX_LENGTH, PlanDto, PlansResponseDto } from './dto/plans.dto';
import { PlansService } from './plans.service';

@ApiTags('Plans')
@ApiExtraModels(PlansResponseDto, PlanDto)
@Controller('partner/plans')
@BearerAuth()
export class PlansController {
  constructor(private readonly plans: PlansService) {}

  @Get()
  @ApiOperation({
    summary: "List the gym's plans",
    description:
      'Without `id`: the gym with its active plans. With `?id=CODE`: an array of the matching plans.',
  })
  @ApiQuery({
    name: 'id',
    required: false,
    type: String,
    maxLength: PLAN_CODE_QUERY_MAX_LENGTH,
    example: 'DPINH002',
    description: 'A plan code (case-insensitive): answers the matching active plans as an array',
  })
  @ApiOkResponse({
    description:
      'Without `id`, an object: the gym with its active plans (`PlansResponseDto`). With `?id=`, an array of the matching plans (`PlanDto[]`). The two shapes differ in JSON type, so no discriminator is needed.',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(PlansResponseDto) },
        {
          type: 'array',
          title: 'PlansByCode',
          description: 'With `?id=`: the matching active plans',
          items: { $ref: getSchemaPath(PlanDto) },
        },
      ],
    },
  })
  @ApiErrorResponses({ 400: ['invalid_plan'], 422: ['invalid_parameter'] })
  list(
    @CurrentPlace() place: AuthenticatedPlace,
    @Query('id') id?: unknown,
  ): Promise<PlansResponseDto | PlanDto[]> {
    return this.plans.list(place.placeId, id);
  }
}
