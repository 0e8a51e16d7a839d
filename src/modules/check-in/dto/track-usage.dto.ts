import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class TrackUsageAttributesDto {
  @ApiProperty({
    enum: ['cpf', 'code', 'token'],
    example: 'cpf',
    description: 'Kind of identifier; `token` names a member check-in made in the app, pending at this gym',
  })
  type: string;

  @ApiProperty({
    example: '11144477735',
    description:
      'The CPF (punctuation `.`, `-` and spaces are stripped), the beneficiary code, or the 6-digit token of a ' +
      'member check-in (spaces and `-` stripped)',
  })
  identifier: string;

  @ApiPropertyOptional({
    example: '59TADO9F',
    description:
      'Code of the gym; when sent it must be the gym of the x-api-key. When absent, that gym is used.',
  })
  service_provider_code?: string;

  @ApiPropertyOptional({
    example: 'B0KR5QWH',
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

  @ApiProperty({ example: '11144477735' })
  identifier: string;
}

export class BeneficiaryCodeAttributesDto {
  @ApiProperty({ example: 'EQ2B3FBK' })
  code: string;
}

export class BeneficiaryCodeDataDto {
  @ApiProperty({ example: 'beneficiary' })
  type: 'beneficiary';

  @ApiProperty({ example: 'EQ2B3FBK' })
  id: string;

  @ApiProperty({ type: BeneficiaryCodeAttributesDto })
  attributes: BeneficiaryCodeAttributesDto;
}

export class BeneficiaryCodeResponseDto {
  @ApiProperty({ example: 'EQ2B3FBK' })
  code: string;

  @ApiProperty({ type: BeneficiaryCodeDataDto })
  data: BeneficiaryCodeDataDto;

  static of(code: string): BeneficiaryCodeResponseDto {
    return { code, data: { type: 'beneficiary', id: code, attributes: { code } } };
  }
}

const CPF = '11144477735';
const GYM = '59TADO9F';
const PLAN = 'B0KR5QWH';

export const FLAT_EXAMPLES = {
  flat: {
    summary: 'Flat body (the usual shape for validate)',
    value: { type: 'cpf', identifier: CPF, service_provider_code: GYM },
  },
  flatWithPlan: {
    summary: 'Flat body at a gym with more than one plan',
    value: { type: 'cpf', identifier: CPF, service_provider_code: GYM, service_provider_plan_code: PLAN },
  },
  byCode: {
    summary: 'By beneficiary code',
    value: { type: 'code', identifier: 'EQ2B3FBK', service_provider_code: GYM },
  },
  byToken: {
    summary: 'By the token of a member check-in made in the app',
    value: { type: 'token', identifier: '048213', service_provider_code: GYM },
  },
};

export const ENVELOPE_EXAMPLES = {
  envelopeToken: {
    summary: 'Envelope, by the token of a member check-in (confirms it)',
    value: {
      data: {
        type: 'track_usage',
        attributes: { type: 'token', identifier: '048213', service_provider_code: GYM },
      },
    },
  },
  envelope: {
    summary: 'Envelope (the usual shape for register)',
    value: {
      data: { type: 'track_usage', attributes: { type: 'cpf', identifier: CPF, service_provider_code: GYM } },
    },
  },
  envelopeWithPlan: {
    summary: 'Envelope at a gym with more than one plan',
    value: {
      data: {
        type: 'track_usage',
        attributes: {
          type: 'cpf',
          identifier: CPF,
          service_provider_code: GYM,
          service_provider_plan_code: PLAN,
        },
      },
    },
  },
};
