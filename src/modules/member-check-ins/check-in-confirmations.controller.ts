import { Controller, Header, HttpCode, Param, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { HttpRouteConfig } from '../../common/http/route-config';
import { ApiObjectSourceErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { BENEFICIARY_RULE_LABELS, CHECK_IN_STATE_LABELS, GYM_RULE_LABELS } from '../eligibility/eligibility';
import { CheckInConfirmationService } from './check-in-confirmation.service';
import { Origin, RequestOrigin } from '../../common/logging/request-context';

/** The body of a confirmation: the JSON string "1", as the platform this service mirrors answers. */
const CONFIRMED = JSON.stringify('1');
const ROUTE_CONFIG: HttpRouteConfig = {
  errorSource: 'object',
  ignoreBody: true,
  checkInOperation: 'confirm',
};

@ApiTags('Check-in')
@Controller('api/v1/webhook_confirmations')
export class CheckInConfirmationsController {
  constructor(private readonly confirmations: CheckInConfirmationService) {}

  @Post(':token')
  @HttpCode(200)
  @Header('content-type', 'application/json; charset=utf-8')
  @RouteConfig(ROUTE_CONFIG)
  @ApiOperation({
    summary: 'Confirm a member check-in: the `endpoint` of its CHECK_IN_CREATED event',
    description:
      'No authentication header and no body: the path holds a capability token (32 random bytes, base64url), ' +
      "sent only in the `endpoint` of the check-in's `CHECK_IN_CREATED` event and stored only as a hash. " +
      'Answers 200 with the JSON string `"1"` when the visit is recorded: the check-in must still be pending ' +
      'and before `expires_at`, and the check-in rules 3 to 9 are evaluated again at its gym, under the ' +
      "beneficiary's lock as in a register; the visit, the check-in's new status (`validated`) and its " +
      '`CHECK_IN_VALIDATED` event are written in one transaction. A second confirmation answers ' +
      '`check_in_not_available`. Errors carry `source` as one object (not an array), and a 404 also ' +
      '`"message": "not found"`, as the platform this service mirrors answers.',
  })
  @ApiParam({ name: 'token', example: 'Vq1n7ZC6pXoT2dJ0b8yRk3uE5wHfLmA9sNcQgIiB4tY' })
  @ApiOkResponse({
    description: 'The visit is recorded',
    content: { 'application/json': { schema: { type: 'string', enum: ['1'] }, example: '1' } },
  })
  @ApiObjectSourceErrorResponses({
    404: ['not_found'],
    // Rules 3 to 9: the gym of a confirmation is the check-in's own.
    422: [
      ...CHECK_IN_STATE_LABELS,
      ...GYM_RULE_LABELS.filter((l) => l !== 'invalid_gym'),
      ...BENEFICIARY_RULE_LABELS,
    ],
  })
  async confirmCheckIn(@Param('token') token: string, @Origin() origin: RequestOrigin): Promise<string> {
    await this.confirmations.confirmAtEndpoint(token, origin);
    return CONFIRMED;
  }
}
