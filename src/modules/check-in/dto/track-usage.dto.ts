import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class TrackUsageAttributesDto {
  @ApiProperty({ enum: ['cpf', 'code'], example: 'cpf', description: 'Kind of identifier' })
  type: string;

  @ApiProperty({
    example: '11144477735',
    description: 'The CPF (punctuation `.`, `-` and spaces are stripped) or the beneficiary code',
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
    description: 'Required only when the gym has more than one active plan',
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
  @ApiProperty({ enum: ['cpf', 'code'], example: 'cpf' })
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
};

export const ENVELOPE_EXAMPLES = {
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
