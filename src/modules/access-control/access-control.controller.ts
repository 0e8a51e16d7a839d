import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ACCESS_TAG, AccessAuth, CurrentGym, CurrentGymKey } from './access-auth';
import { AccessGym, AccessGymKey } from './access-control.repository';
import { AccessControlService } from './access-control.service';
import {
  AccessErrorDto,
  CustomCodeRequestDto,
  MEMBER_NUMBER_EXAMPLE,
  ValidateRequestDto,
  ValidateResponseDto,
} from './dto/access-control.dto';
import { ACCESS_ERROR_EXAMPLES, VALIDATE_EXAMPLES } from './dto/access-examples';

const MEMBER_PARAM = ApiParam({
  name: 'gympass_id',
  example: MEMBER_NUMBER_EXAMPLE,
  description: 'Member number',
});

/** Wellhub's Access Control API: validate a member's app check-in, and the gym system's custom codes. */
@ApiTags(ACCESS_TAG)
@Controller('access/v1')
export class AccessControlController {
  constructor(private readonly access: AccessControlService) {}

  @Post('validate')
  @HttpCode(200)
  @AccessAuth('header', { checkInOperation: 'confirm' }, { handlerReadsGym: true })
  @ApiOperation({
    summary: "Validate a member's check-in made in the app (Wellhub's POST /access/v1/validate)",
    description:
      "Confirms the member's pending app check-in at the gym of `X-Gym-Id`: the same confirmation as the " +
      "`endpoint` of its CHECK_IN_CREATED event (the check-in rules 3 to 9 again, under the beneficiary's lock; " +
      'one visit; the check-in becomes `validated`; CHECK_IN_VALIDATED is sent). A repeat for the same check-in ' +
      '(an answer lost on the way) is `checkin.already.validated`, which clients read as success; it records ' +
      'nothing. Read each answer by its `key`. Validations that find no check-in are limited per key ' +
      '(TOKEN_LOOKUP_FAILURES_PER_MINUTE; then 429 with Retry-After). `custom_code`, when sent, is stored for ' +
      'the member at this gym on 200, canceled, expired and already-validated answers.',
  })
  @ApiBody({ type: ValidateRequestDto, examples: VALIDATE_EXAMPLES })
  @ApiOkResponse({ type: ValidateResponseDto, description: 'The visit is recorded' })
  @ApiResponse({
    status: 400,
    type: AccessErrorDto,
    description:
      '`checkin.validation.canceled`, `checkin.validation.expired`, `checkin.already.validated`, ' +
      "`checkin.validation.denied` (with the refusing rule's `label`), `checkin.validation.invalid`",
    content: { 'application/json': { examples: ACCESS_ERROR_EXAMPLES.validate400 } },
  })
  @ApiResponse({
    status: 404,
    type: AccessErrorDto,
    description: '`checkin.validation.notfound`: no check-in of that member at this gym today',
    content: { 'application/json': { examples: ACCESS_ERROR_EXAMPLES.notFound } },
  })
  @ApiResponse({ status: 429, type: AccessErrorDto, description: '`request.rate_limited`, with Retry-After' })
  validate(@CurrentGymKey() key: AccessGymKey, @Body() body: unknown): Promise<ValidateResponseDto> {
    return this.access.validate(key, body);
  }

  @Post('code/:gympass_id')
  @HttpCode(204)
  @AccessAuth('header')
  @ApiOperation({ summary: "Set the gym system's custom code for a member at this gym" })
  @MEMBER_PARAM
  @ApiBody({ type: CustomCodeRequestDto })
  @ApiNoContentResponse({ description: 'Stored' })
  @ApiResponse({ status: 400, type: AccessErrorDto, description: '`checkin.validation.invalid`' })
  @ApiResponse({
    status: 404,
    type: AccessErrorDto,
    description: '`checkin.validation.notfound`: no such member',
  })
  createCode(
    @CurrentGym() gym: AccessGym,
    @Param('gympass_id') memberNumber: string,
    @Body() body: unknown,
  ): Promise<void> {
    return this.access.setCustomCode(gym, memberNumber, body);
  }

  @Put('code/:gympass_id')
  @HttpCode(204)
  @AccessAuth('header')
  @ApiOperation({ summary: "Change the gym system's custom code for a member at this gym" })
  @MEMBER_PARAM
  @ApiBody({ type: CustomCodeRequestDto })
  @ApiNoContentResponse({ description: 'Stored' })
  @ApiResponse({ status: 400, type: AccessErrorDto, description: '`checkin.validation.invalid`' })
  @ApiResponse({
    status: 404,
    type: AccessErrorDto,
    description: '`checkin.validation.notfound`: no such member',
  })
  updateCode(
    @CurrentGym() gym: AccessGym,
    @Param('gympass_id') memberNumber: string,
    @Body() body: unknown,
  ): Promise<void> {
    return this.access.setCustomCode(gym, memberNumber, body);
  }

  @Delete('code/:gympass_id')
  @HttpCode(204)
  @AccessAuth('header')
  @ApiOperation({ summary: "Remove the gym system's custom code for a member at this gym" })
  @MEMBER_PARAM
  @ApiNoContentResponse({ description: 'Removed (or there was none)' })
  @ApiResponse({
    status: 404,
    type: AccessErrorDto,
    description: '`checkin.validation.notfound`: no such member',
  })
  deleteCode(@CurrentGym() gym: AccessGym, @Param('gympass_id') memberNumber: string): Promise<void> {
    return this.access.deleteCustomCode(gym, memberNumber);
  }
}
