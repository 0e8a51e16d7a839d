import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class TrackUsageAttributesDto {
  @ApiProperty({
    enum: ['cpf', 'code', 'token'],
    example: 'cpf',
    description: 'Kind of identifier; `token` names a member check-in made in the app, pending at this gym',
  })
  type: string;

  @ApiProperty({
    example: '12345600896',
    description:
      'The CPF (punctuation `.`, `-` and spaces are stripped), the beneficiary code, or the 6-digit token of a ' +
      'member check-in (spaces and `-` stripped)',
  })
  identifier: string;

  @ApiPropertyOptional({
    example: 'DEMOPINH',
    description:
      'Code of the gym; when sent it must be the gym of the x-api-key. When absent, that gym is used.',
  })
  service_provider_code?: string;

  @ApiPropertyOptional({
    example: 'DPINH002',
    description:
      'Required only when the gym has more than one active plan. With `type: "token"` the check-in was made ' +
      'for a plan already, and this is not used.',
  })
  service_provider_plan_code?: string;
}

export class TrackUsageDataDto {
  @ApiPropertyOptional({ example: 'track_usage', description: 'When present, must be `track_usage`' })
  type?: string;

  @ApiProperty({ type: TrackUsageAttributesDto })
  attributes: TrackUsageAttributesDto;
}

export class TrackUsageEnvelopeDto {
  @ApiProperty({ type: TrackUsageDataDto })
  data: TrackUsageDataDto;
}

export class IdentifierRequestDto {
  @ApiProperty({ enum: ['cpf', 'code', 'token'], example: 'cpf' })
  type: string;

  @ApiProperty({ example: '12345600896' })
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

// The demo's data (npm run demo): every example answers as its summary says against a fresh demo.
const CPF = '12345600896';
const GYM = 'DEMOPINH';
/** The demo's unit with two plans, and one of them. */
const CHAIN_GYM = 'DEMOPAUL';
const PLAN = 'DPBASIC1';
const TOKEN_NOT_PENDING = 'until a member check-in pending at this gym has this token; then 204';

export const FLAT_EXAMPLES = {
  flat: {
    summary: 'Flat body (the usual shape for validate) → 204',
    value: { type: 'cpf', identifier: CPF, service_provider_code: GYM },
  },
  flatWithPlan: {
    summary: 'Flat body at a gym with more than one plan → 204',
    value: {
      type: 'cpf',
      identifier: CPF,
      service_provider_code: CHAIN_GYM,
      service_provider_plan_code: PLAN,
    },
  },
  byCode: {
    summary: 'By beneficiary code → 204',
    value: { type: 'code', identifier: 'DEMO0002', service_provider_code: GYM },
  },
  byToken: {
    summary: 'By the token of a member check-in made in the app → 422 not_exists',
    description: `422 \`not_exists\` ${TOKEN_NOT_PENDING}.`,
    value: { type: 'token', identifier: '048213', service_provider_code: GYM },
  },
};

export const ENVELOPE_EXAMPLES = {
  envelopeToken: {
    summary: 'Envelope, by the token of a member check-in (confirms it) → 422 not_exists',
    description: `422 \`not_exists\` ${TOKEN_NOT_PENDING}.`,
    value: {
      data: {
        type: 'track_usage',
        attributes: { type: 'token', identifier: '048213', service_provider_code: GYM },
      },
    },
  },
  envelope: {
    summary: 'Envelope (the usual shape for register) → 204',
    value: {
      data: { type: 'track_usage', attributes: { type: 'cpf', identifier: CPF, service_provider_code: GYM } },
    },
  },
  envelopeWithPlan: {
    summary: 'Envelope at a gym with more than one plan → 204',
    value: {
      data: {
        type: 'track_usage',
        attributes: {
          type: 'cpf',
          identifier: CPF,
          service_provider_code: CHAIN_GYM,
          service_provider_plan_code: PLAN,
        },
      },
    },
  },
};
