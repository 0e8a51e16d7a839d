import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { MemberAuth } from '../auth/member-auth';
import { BENEFICIARY_RULE_LABELS, GYM_RULE_LABELS } from '../eligibility/eligibility';
import {
  CANCELLED_EXAMPLE,
  CREATE_EXAMPLES,
  CreateMemberCheckInDto,
  MemberCheckInDto,
} from './dto/member-check-ins.dto';
import { MemberCheckInsService } from './member-check-ins.service';
import { Origin, RequestOrigin } from '../../common/logging/request-context';

const CHECK_IN_ID = { name: 'id', example: '0b6f3e0c-6c1b-4b8e-9d55-2f4c7a1e9b20' };

@ApiTags('Member check-ins')
@Controller('member/v1/check_ins')
@MemberAuth()
export class MemberCheckInsController {
  constructor(private readonly checkIns: MemberCheckInsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: "Create a member's check-in at a gym (the platform's app backend)",
    description:
      'Runs the check-in rules 2 to 9 at the chosen gym, with the same labels as a register, and creates a ' +
      'pending check-in: a 6-digit `token` the member shows at the desk, and a confirmation `endpoint` sent to ' +
      "the gym's CHECKIN webhook in a `CHECK_IN_CREATED` event. It consumes nothing until the gym confirms it " +
      '(at the endpoint, or with `type: "token"` on POST /v1/track_usages). A member has one live check-in: a ' +
      'new one cancels the pending one (`CHECK_IN_CANCELLED`, `cancel_reason` replaced). Unconfirmed, it ' +
      'expires at `expires_at`.',
  })
  @ApiBody({ type: CreateMemberCheckInDto, examples: CREATE_EXAMPLES })
  @ApiCreatedResponse({ type: MemberCheckInDto, description: 'The pending check-in' })
  @ApiErrorResponses({ 422: ['invalid_parameter', ...GYM_RULE_LABELS, ...BENEFICIARY_RULE_LABELS] })
  create(@Body() body: unknown, @Origin() origin: RequestOrigin): Promise<MemberCheckInDto> {
    return this.checkIns.create(body, origin);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A member check-in with its status: pending, validated, expired or cancelled' })
  @ApiParam(CHECK_IN_ID)
  @ApiOkResponse({ type: MemberCheckInDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@Param('id') id: string): Promise<MemberCheckInDto> {
    return this.checkIns.get(id);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a pending member check-in',
    description:
      "Answers the check-in, now `cancelled`, and sends `CHECK_IN_CANCELLED` to the gym's CHECKIN webhook. " +
      'A check-in that is no longer pending (confirmed, cancelled, replaced or expired) is ' +
      '`check_in_not_available`.',
  })
  @ApiParam(CHECK_IN_ID)
  @ApiOkResponse({
    type: MemberCheckInDto,
    content: { 'application/json': { example: CANCELLED_EXAMPLE } },
  })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['check_in_not_available'] })
  cancel(@Param('id') id: string, @Origin() origin: RequestOrigin): Promise<MemberCheckInDto> {
    return this.checkIns.cancel(id, origin);
  }
}
