import { applyDecorators, Body, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
} from '@nestjs/swagger';
import { AccessAuth, AccessController, CurrentGym, CurrentGymKey } from './access-auth';
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
import { Origin, RequestOrigin } from '../../common/logging/request-context';

/**
 * A route of a member's custom code at the gym: 204, the member's number in the path (404 for an unknown member);
 * a `stored` code comes in the body (400 when invalid).
 */
function CustomCodeRoute(summary: string, outcome: 'stored' | 'removed') {
  const stored = outcome === 'stored';
  return applyDecorators(
    HttpCode(204),
    ApiOperation({ summary }),
    ApiParam({ name: 'gympass_id', example: MEMBER_NUMBER_EXAMPLE, description: 'Member number' }),
    ...(stored ? [ApiBody({ type: CustomCodeRequestDto })] : []),
    ApiNoContentResponse({ description: stored ? 'Stored' : 'Removed (or there was none)' }),
    ...(stored
      ? [ApiResponse({ status: 400, type: AccessErrorDto, description: '`checkin.validation.invalid`' })]
      : []),
    ApiResponse({
      status: 404,
      type: AccessErrorDto,
      description: '`checkin.validation.notfound`: no such member',
    }),
  );
}

/** Wellhub's Access Control API: validate a member's app check-in, and the gym system's custom codes. */
@AccessController('access/v1')
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
  validate(
    @CurrentGymKey() key: AccessGymKey,
    @Body() body: unknown,
    @Origin() origin: RequestOrigin,
  ): Promise<ValidateResponseDto> {
    return this.access.validate(key, body, origin);
  }

  @Post('code/:gympass_id')
  @AccessAuth('header')
  @CustomCodeRoute("Set the gym system's custom code for a member at this gym", 'stored')
  createCode(
    @CurrentGym() gym: AccessGym,
    @Param('gympass_id') memberNumber: string,
    @Body() body: unknown,
  ): Promise<void> {
    return this.access.setCustomCode(gym, memberNumber, body);
  }

  @Put('code/:gympass_id')
  @AccessAuth('header')
  @CustomCodeRoute("Change the gym system's custom code for a member at this gym", 'stored')
  updateCode(
    @CurrentGym() gym: AccessGym,
    @Param('gympass_id') memberNumber: string,
    @Body() body: unknown,
  ): Promise<void> {
    return this.access.setCustomCode(gym, memberNumber, body);
  }

  @Delete('code/:gympass_id')
  @AccessAuth('header')
  @CustomCodeRoute("Remove the gym system's custom code for a member at this gym", 'removed')
  deleteCode(@CurrentGym() gym: AccessGym, @Param('gympass_id') memberNumber: string): Promise<void> {
    return this.access.deleteCustomCode(gym, memberNumber);
  }
}
