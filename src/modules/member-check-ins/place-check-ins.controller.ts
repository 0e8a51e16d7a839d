import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import {
  BeneficiaryCheckInPageDto,
  PlaceCheckInPageDto,
  PlaceCheckInsQueryDto,
} from './dto/place-check-ins.dto';
import { MemberCheckInsService } from './member-check-ins.service';

@ApiTags('Control panel')
@Controller('admin/places')
@AdminAuth()
export class PlaceCheckInsController {
  constructor(private readonly checkIns: MemberCheckInsService) {}

  @Get(':id/check-ins')
  @Roles('support', 'gym')
  @ApiOperation({
    summary: "The place's member check-ins with their status, newest first",
    description:
      'A pending check-in past its `expires_at` is listed (and filtered) as `expired`. For a gym account, a ' +
      'place outside its scope answers 404 `not_found`.',
  })
  @ApiParam({ name: 'id', example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  @ApiOkResponse({ type: PlaceCheckInPageDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  list(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() query: PlaceCheckInsQueryDto,
  ): Promise<PlaceCheckInPageDto> {
    return this.checkIns.listOfPlace(caller, id, query);
  }
}

@ApiTags('Control panel')
@Controller('admin/beneficiaries')
@AdminAuth()
export class BeneficiaryCheckInsController {
  constructor(private readonly checkIns: MemberCheckInsService) {}

  @Get(':cpf/check-ins')
  @Roles('support')
  @ApiOperation({
    summary: "A beneficiary's member check-ins at every place, newest first",
    description: 'A pending check-in past its `expires_at` is listed (and filtered) as `expired`.',
  })
  @ApiParam({
    name: 'cpf',
    example: '111.444.777-35',
    description: "A CPF, with or without punctuation, or the beneficiary's 8-character code",
  })
  @ApiOkResponse({ type: BeneficiaryCheckInPageDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  list(@Param('cpf') cpf: string, @Query() query: PlaceCheckInsQueryDto): Promise<BeneficiaryCheckInPageDto> {
    return this.checkIns.listOfBeneficiary(cpf, query);
  }
}
