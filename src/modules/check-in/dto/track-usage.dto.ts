import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IDENTIFIER_TYPES, MAX_FIELD_LENGTH } from '../../eligibility/track-usage-request';

// The check-in routes read their bodies by hand (`track-usage-request.ts`: measured an order of magnitude
// cheaper than the validation pipe, scripts/body-validation-cost.ts); these classes document them, with the
// limits that parser enforces taken from its own constants.

export class TrackUsageAttributesDto {
  @ApiProperty({
    enum: IDENTIFIER_TYPES,
    example: 'cpf',
    description: 'Kind of identifier; `token` names a member check-in made in the app, pending at this gym',
  })
  type: string;

  @ApiProperty({
    example: '12345600896',
    description:
      'The CPF (punctuation `.`, `-` and spaces are stripped), the beneficiary code, or the 6-digit token of a ' +
      'member check-in (spaces and `-` stripped)',
    maxLength: MAX_FIELD_LENGTH,
  })
  identifier: string;

  @ApiPropertyOptional({
    example: 'DEMOPINH',
    description:
      'Code of the gym; when sent it must be the gym of the x-api-key. When absent, that gym is used.',
    maxLength: MAX_FIELD_LENGTH,
  })
  service_provider_code?: string;

  @ApiPropertyOptional({
    example: 'DPINH002',
    description:
      'Required only when the gym has more than one active plan. With `type: "token"` the check-in was made ' +
      'for a plan already, and this is not used.',
    maxLength: MAX_FIELD_LENGTH,
  })
  service_provider_plan_code?: string;
}

export class TrackUsageDataDto {
  @ApiPropertyOptional({
    example: 'track_usage',
    enum: ['track_usage'],
    description: 'When present, must be `track_usage`',
  })
  type?: string;

  @ApiProperty({ type: TrackUsageAttributesDto })
  attributes: TrackUsageAttributesDto;
}

export class TrackUsageEnvelopeDto {
  @ApiProperty({ type: TrackUsageDataDto })
  data: TrackUsageDataDto;
}

export class IdentifierRequestDto {
  @ApiProperty({ enum: IDENTIFIER_TYPES, example: 'cpf' })
  type: string;

  @ApiProperty({ example: '12345600896', maxLength: MAX_FIELD_LENGTH })
  identifier: string;
}

export class BeneficiaryCodeAttributesDto {
  @ApiProperty({ example: 'DEMO0002' })
  code: string;
}

export class BeneficiaryCodeDataDto {
  @ApiProperty({ example: 'beneficiary' })
  type: 'beneficiary';

  @ApiProperty({ example: 'DEMO0002' })
  id: string;

  @ApiProperty({ type: BeneficiaryCodeAttributesDto })
  attributes: BeneficiaryCodeAttributesDto;
}

export class BeneficiaryCodeResponseDto {
  @ApiProperty({ example: 'DEMO0002' })
  code: string;

  @ApiProperty({ type: BeneficiaryCodeDataDto })
  data: BeneficiaryCodeDataDto;

  static of(code: string): BeneficiaryCodeResponseDto {
    return { code, data: { type: 'beneficiary', id: code, attributes: { code } } };
  }
}

// The demo's data (npm run demo). Every example answers as its summary says when a reader tries them in the
// document's order on a fresh demo (test/openapi-examples.e2e-spec.ts does exactly that): the examples that
// record something each use a Silver beneficiary of their own (tier 2, so both demo gyms admit them), never one
// of the Gold ones the demo's printed story uses.
const GYM = 'DEMOPINH';
/** The demo's unit with two plans, and one of them. */
const CHAIN_GYM = 'DEMOPAUL';
const PLAN = 'DPBASIC1';
const TOKEN_NOT_PENDING = 'until a member check-in pending at this gym has this token; then 204';

/** Bruno Oliveira (DEMO0002): the validate and look-up examples, which record nothing. */
const CHECKED = { cpf: '12345600896', code: 'DEMO0002' };
/** One demo beneficiary per register example. */
const REGISTERED = {
  envelope: '12345602910', // Elisa Souza, DEMO0005
  envelopeWithPlan: '12345605006', // Henrique Lima, DEMO0008
  flat: '12345607122', // Bruno Santos, DEMO0011
  byCode: 'DEMO0014', // Elisa Oliveira
};

const tokenExample = (shape: 'flat' | 'envelope') => {
  const attributes = { type: 'token', identifier: '048213', service_provider_code: GYM };
  return {
    summary:
      shape === 'flat'
        ? 'By the token of a member check-in made in the app → 422 not_exists'
        : 'Envelope, by the token of a member check-in (confirms it) → 422 not_exists',
    description: `422 \`not_exists\` ${TOKEN_NOT_PENDING}.`,
    value: shape === 'flat' ? attributes : { data: { type: 'track_usage', attributes } },
  };
};

/** Validate: the flat body first (Swagger UI's default), then the other shapes; none records anything. */
export const VALIDATE_EXAMPLES = {
  flat: {
    summary: 'Flat body (the usual shape for validate) → 204',
    value: { type: 'cpf', identifier: CHECKED.cpf, service_provider_code: GYM },
  },
  flatWithPlan: {
    summary: 'Flat body at a gym with more than one plan → 204',
    value: {
      type: 'cpf',
      identifier: CHECKED.cpf,
      service_provider_code: CHAIN_GYM,
      service_provider_plan_code: PLAN,
    },
  },
  byCode: {
    summary: 'By beneficiary code → 204',
    value: { type: 'code', identifier: CHECKED.code, service_provider_code: GYM },
  },
  envelope: {
    summary: 'Envelope (accepted too) → 204',
    value: {
      data: {
        type: 'track_usage',
        attributes: { type: 'cpf', identifier: CHECKED.cpf, service_provider_code: GYM },
      },
    },
  },
  byToken: tokenExample('flat'),
};

/** Register: the envelope by CPF first (Swagger UI's default); each example records a visit of its own beneficiary. */
export const REGISTER_EXAMPLES = {
  envelope: {
    summary: 'Envelope (the usual shape for register) → 204',
    value: {
      data: {
        type: 'track_usage',
        attributes: { type: 'cpf', identifier: REGISTERED.envelope, service_provider_code: GYM },
      },
    },
  },
  envelopeWithPlan: {
    summary: 'Envelope at a gym with more than one plan → 204',
    value: {
      data: {
        type: 'track_usage',
        attributes: {
          type: 'cpf',
          identifier: REGISTERED.envelopeWithPlan,
          service_provider_code: CHAIN_GYM,
          service_provider_plan_code: PLAN,
        },
      },
    },
  },
  flat: {
    summary: 'Flat body (accepted too) → 204',
    value: { type: 'cpf', identifier: REGISTERED.flat, service_provider_code: GYM },
  },
  byCode: {
    summary: 'By beneficiary code → 204',
    value: {
      data: {
        type: 'track_usage',
        attributes: { type: 'code', identifier: REGISTERED.byCode, service_provider_code: GYM },
      },
    },
  },
  envelopeToken: tokenExample('envelope'),
};
