import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { HttpRouteConfig } from '../../common/http/route-config';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { ApiKeyAuth, CurrentPlace } from '../auth/auth.decorators';
import { AuthenticatedPlace } from '../auth/auth.types';
import { BeneficiaryCodeService } from './beneficiary-code.service';
import { CheckInService } from './check-in.service';
import { IdempotencyKey } from './idempotency-key.decorator';
import { BENEFICIARY_RULE_LABELS, CHECK_IN_STATE_LABELS, GYM_RULE_LABELS } from '../eligibility/eligibility';
import {
  BeneficiaryCodeResponseDto,
  REGISTER_EXAMPLES,
  VALIDATE_EXAMPLES,
  IdentifierRequestDto,
  TrackUsageAttributesDto,
  TrackUsageEnvelopeDto,
} from './dto/track-usage.dto';
import { Origin, RequestOrigin } from '../../common/logging/request-context';

const ELIGIBILITY_LABELS = [
  'invalid_parameter',
  ...GYM_RULE_LABELS,
  ...BENEFICIARY_RULE_LABELS,
  ...CHECK_IN_STATE_LABELS,
] as const;

const VALIDATE: HttpRouteConfig = { checkInOperation: 'validate' };
const REGISTER: HttpRouteConfig = { checkInOperation: 'register' };

const BOTH_SHAPES = {
  oneOf: [{ $ref: getSchemaPath(TrackUsageAttributesDto) }, { $ref: getSchemaPath(TrackUsageEnvelopeDto) }],
};

const RULES = `Rules, checked in this order (the first that fails is the answer): body shape (\`invalid_parameter\`),
\`service_provider_code\` is the key's gym (\`invalid_gym\`), gym active (\`gym_inactive\`), plan code when the gym has
more than one plan (\`gym_with_more_than_one_plan\`, \`invalid_plan\`), beneficiary with an active benefit plan
(\`not_exists\`), beneficiary active (\`inactive_employee\`), plan tier allowed (\`plan_not_allowed\`), no visit in the
recent window, 90 minutes by default (\`already_used\` here, \`already_used_other_gym\` elsewhere), monthly limit of the
benefit plan, counted by calendar month in the business time zone (\`usage_limit_reached\`).

A gym with one plan uses it. A gym with no active plan places no tier restriction; a plan code sent to it is
\`invalid_plan\`.

With \`type: "token"\` the identifier is the 6-digit token of a member check-in made in the platform's app and
pending at this gym. After rules 2 and 3 comes the token: \`not_exists\` when no check-in of this gym has it
(another gym's token included), \`check_in_not_available\` when it is no longer pending (confirmed, cancelled or
replaced), \`check_in_expired_alert\` past its \`expires_at\`; then rules 4 to 9 for the plan the check-in was
made for. A token this gym already confirmed, sent again (a retry without \`Idempotency-Key\`), answers
\`already_used\` while its visit is within the recent window: the member has a visit here; after the window it is
\`check_in_not_available\`. Token look-ups that find nothing are limited per key (TOKEN_LOOKUP_FAILURES_PER_MINUTE): over the
limit every token look-up of the key answers 429 \`rate_limited\` with \`Retry-After\` until the minute ends.`;

@ApiTags('Check-in')
@ApiExtraModels(TrackUsageAttributesDto, TrackUsageEnvelopeDto)
@Controller('v1/track_usages')
@ApiKeyAuth()
export class CheckInController {
  constructor(
    private readonly checkIns: CheckInService,
    private readonly codes: BeneficiaryCodeService,
  ) {}

  @Post('validate')
  @HttpCode(204)
  @RouteConfig(VALIDATE)
  @ApiOperation({
    summary: 'Check eligibility without consuming a visit',
    description: `Answers 204 with no body when the beneficiary may enter now. Never records anything.\n\n${RULES}`,
  })
  @ApiBody({ schema: BOTH_SHAPES, examples: VALIDATE_EXAMPLES })
  @ApiNoContentResponse({ description: 'Eligible (for a token: a confirmation would succeed now)' })
  @ApiErrorResponses({ 422: [...ELIGIBILITY_LABELS], 429: ['rate_limited'] })
  async validateTrackUsage(@CurrentPlace() place: AuthenticatedPlace, @Body() body: unknown): Promise<void> {
    await this.checkIns.validate(place, body);
  }

  @Post()
  @HttpCode(204)
  @RouteConfig(REGISTER)
  @ApiOperation({
    summary: 'Record a visit (consumes it)',
    description:
      'Evaluates the same rules as validate and records exactly one visit, stamped by the server, in one ' +
      'transaction that locks the beneficiary. With `type: "token"` it confirms the member check-in exactly ' +
      'as its confirmation endpoint does (the check-in becomes `validated`, `CHECK_IN_VALIDATED` is sent). ' +
      'With an `Idempotency-Key` header, a repeat within 24 hours answers like the first request and records ' +
      `nothing.\n\n${RULES}`,
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Up to 255 characters; reusing it for a different request is `invalid_parameter`',
  })
  @ApiBody({ schema: BOTH_SHAPES, examples: REGISTER_EXAMPLES })
  @ApiNoContentResponse({ description: 'Visit recorded' })
  @ApiErrorResponses({ 422: [...ELIGIBILITY_LABELS], 429: ['rate_limited'] })
  async registerTrackUsage(
    @CurrentPlace() place: AuthenticatedPlace,
    @Body() body: unknown,
    @Origin() origin: RequestOrigin,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<void> {
    await this.checkIns.register(place, body, origin, idempotencyKey);
  }

  @Post('beneficiaries/code')
  @HttpCode(200)
  @ApiOperation({
    summary: "Look up a beneficiary's code by CPF (or by the token of their pending member check-in)",
    description:
      'With `type: "token"`: `not_exists` for a token no check-in of this gym has, `check_in_not_available` ' +
      'and `check_in_expired_alert` for one no longer pending or past its time; failed token look-ups are ' +
      'limited per key (429 `rate_limited`).',
  })
  @ApiBody({
    type: IdentifierRequestDto,
    examples: {
      flat: { summary: 'Flat body → 200', value: { type: 'cpf', identifier: '12345600896' } },
      envelope: {
        summary: 'Envelope → 200',
        value: { data: { type: 'track_usage', attributes: { type: 'cpf', identifier: '12345600896' } } },
      },
      token: {
        summary: 'By check-in token → 422 not_exists',
        value: { type: 'token', identifier: '048213' },
      },
    },
  })
  @ApiOkResponse({ type: BeneficiaryCodeResponseDto, description: "The beneficiary's code" })
  @ApiErrorResponses({
    422: ['invalid_parameter', 'not_exists', ...CHECK_IN_STATE_LABELS],
    429: ['rate_limited'],
  })
  async getBeneficiaryCode(
    @CurrentPlace() place: AuthenticatedPlace,
    @Body() body: unknown,
  ): Promise<BeneficiaryCodeResponseDto> {
    return BeneficiaryCodeResponseDto.of(await this.codes.findCode(place, body));
  }
}
