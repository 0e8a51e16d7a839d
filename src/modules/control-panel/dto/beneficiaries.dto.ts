import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsCalendarDate } from '../../../common/time/calendar-date';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsEmailAddress } from '../../../common/validation/is-email-address';
import { PageMetaDto, PageQueryDto } from '../../../common/http/paging';
import { BENEFICIARY_FIELD_LENGTHS as MAX, MAX_BULK_ROWS } from '../bulk-rows';
import { OmitOrValidate } from './optional';

/** Fields that may be cleared with null. */
class BeneficiaryContactDto {
  @ApiPropertyOptional({ example: 'joana@example.com', nullable: true, type: String })
  @IsOptional()
  @MaxLength(MAX.email)
  @IsEmailAddress({ message: 'validation.isEmail' })
  @IsString()
  email?: string | null;

  @ApiPropertyOptional({ example: '+5511988887777', nullable: true, type: String })
  @IsOptional()
  @MaxLength(MAX.phone)
  @IsString()
  phone?: string | null;

  @ApiPropertyOptional({ example: '1991-02-03', nullable: true, type: String, description: 'YYYY-MM-DD' })
  @IsOptional()
  @IsCalendarDate()
  birthday?: string | null;
}

export class CreateBeneficiaryDto extends BeneficiaryContactDto {
  @ApiProperty({
    example: '111.444.777-35',
    description: '11 digits; `.`, `-` and spaces are stripped; check digits are verified; unique',
  })
  @MaxLength(MAX.cpf)
  @IsString()
  cpf: string;

  @ApiProperty({ example: 'Joana Lima' })
  @MaxLength(MAX.name)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name: string;

  @ApiProperty({ example: 'GOLD', description: 'code of an existing benefit plan' })
  @MaxLength(MAX.benefit_plan_code)
  @IsString()
  benefit_plan_code: string;

  @ApiPropertyOptional({ example: true, default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean | null;

  @ApiPropertyOptional({
    example: 'EQ2B3FBK',
    description: '8 characters A-Z 0-9, unique; generated when absent',
  })
  @IsOptional()
  @Matches(/^[A-Z0-9]{8}$/, { message: 'validation.eightCharacterCode' })
  @IsString()
  code?: string | null;
}

export class UpdateBeneficiaryDto extends BeneficiaryContactDto {
  @ApiPropertyOptional({ example: 'Joana Lima Souza' })
  @OmitOrValidate()
  @MaxLength(MAX.name)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name?: string;

  @ApiPropertyOptional({ example: false, description: 'false: check-ins answer inactive_employee' })
  @OmitOrValidate()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ example: 'SILVER', description: 'code of an existing benefit plan' })
  @OmitOrValidate()
  @MaxLength(MAX.benefit_plan_code)
  @IsString()
  benefit_plan_code?: string;
}

export class BeneficiaryDto {
  @ApiProperty({ example: '11144477735', description: 'Masked (`111.***.***-35`) for support' })
  cpf: string;

  @ApiProperty({ example: 'EQ2B3FBK' })
  code: string;

  @ApiProperty({
    example: '1836547291045',
    description:
      '13 digits, given at creation and never reused: the member number of the Wellhub-compatible access ' +
      'control (`gympass_id`, `unique_token`)',
  })
  member_number: string;

  @ApiProperty({ example: 'Joana Lima' })
  name: string;

  @ApiProperty({ example: 'joana@example.com', nullable: true, type: String })
  email: string | null;

  @ApiProperty({ example: '+5511988887777', nullable: true, type: String })
  phone: string | null;

  @ApiProperty({ example: '1991-02-03', nullable: true, type: String })
  birthday: string | null;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: 'GOLD', nullable: true, type: String })
  benefit_plan_code: string | null;
}

/**
 * The bulk import's body, for the document: `bulkRowsOf` and `validateRows` read it by hand (see there why), with
 * the limits of `CreateBeneficiaryDto` (BENEFICIARY_FIELD_LENGTHS), which its rows are documented with.
 */
export class BulkImportDto {
  @ApiProperty({
    type: [CreateBeneficiaryDto],
    maxItems: MAX_BULK_ROWS,
    description:
      `Up to ${MAX_BULK_ROWS} rows, each shaped like the body of POST /admin/beneficiaries; upsert by CPF. ` +
      'On update, fields absent from a row keep their value. A refused row is reported by its index; the ' +
      'others are imported.',
    example: [
      { cpf: '11144477735', name: 'Joana Lima', benefit_plan_code: 'GOLD' },
      {
        cpf: '529.982.247-25',
        name: 'Pedro Alves',
        email: 'pedro@example.com',
        benefit_plan_code: 'BASIC',
        active: false,
      },
    ],
  })
  beneficiaries: CreateBeneficiaryDto[];
}

export class BulkErrorDto {
  @ApiProperty({ example: 3, description: 'Index of the row in the request' })
  index: number;

  @ApiProperty({ enum: ['invalid_parameter'], example: 'invalid_parameter' })
  label: 'invalid_parameter';

  @ApiProperty({ example: 'cpf must be 11 digits with valid check digits' })
  message: string;
}

export class BulkImportResultDto {
  @ApiProperty({ example: 9998 })
  created: number;

  @ApiProperty({ example: 1 })
  updated: number;

  @ApiProperty({ type: [BulkErrorDto], description: 'The rows left out, by index; the others were imported' })
  errors: BulkErrorDto[];
}

export class BeneficiariesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: '111.444',
    description: 'The start of a CPF (any punctuation), a whole code, or part of a name',
  })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  q?: string;
}

/** The search of the beneficiary list, for its CSV export. */
export class BeneficiariesExportQueryDto extends OmitType(BeneficiariesQueryDto, [
  'page',
  'page_size',
] as const) {}

export class BeneficiaryListItemDto {
  @ApiProperty({ example: '11144477735', description: 'Masked (`111.***.***-35`) for support' })
  cpf: string;

  @ApiProperty({ example: 'EQ2B3FBK' })
  code: string;

  @ApiProperty({ example: '1836547291045', description: 'The member number (13 digits)' })
  member_number: string;

  @ApiProperty({ example: 'Joana Lima' })
  name: string;

  @ApiProperty({ example: 'joana@example.com', nullable: true, type: String })
  email: string | null;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: 'GOLD', nullable: true, type: String })
  benefit_plan_code: string | null;
}

export class BeneficiaryPageDto extends PageMetaDto {
  @ApiProperty({ type: [BeneficiaryListItemDto], description: 'By name' })
  data: BeneficiaryListItemDto[];
}

export class BeneficiaryUsageDto {
  @ApiProperty({ example: '2026-11', description: 'The calendar month, in BUSINESS_TIMEZONE' })
  month: string;

  @ApiProperty({
    example: 5,
    description: 'Visits since the start of the month: what the monthly limit (usage_limit_reached) counts',
  })
  visits_this_month: number;

  @ApiProperty({ example: 8, nullable: true, type: Number, description: 'null: unlimited' })
  monthly_visit_limit: number | null;

  @ApiProperty({
    example: 3,
    nullable: true,
    type: Number,
    description: 'Visits left this month; null: unlimited',
  })
  remaining: number | null;

  @ApiProperty({ example: 'BASIC', nullable: true, type: String })
  benefit_plan_code: string | null;

  @ApiProperty({ example: 'Basic', nullable: true, type: String })
  benefit_plan_name: string | null;

  @ApiProperty({
    example: 1,
    nullable: true,
    type: Number,
    description: 'The highest gym plan tier it grants',
  })
  benefit_plan_tier: number | null;

  @ApiProperty({
    example: true,
    nullable: true,
    type: Boolean,
    description: 'false: check-ins answer not_exists',
  })
  benefit_plan_active: boolean | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00', nullable: true, type: String })
  last_visit_at: string | null;
}

export class BeneficiaryVisitDto {
  @ApiProperty({ example: '90211' })
  id: string;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  place_id: string;

  @ApiProperty({ example: 'Acme Paulista', nullable: true, type: String })
  place_name: string | null;

  @ApiProperty({ example: 'B0KR5QWH', nullable: true, type: String })
  plan_code: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  created_at: string;

  @ApiProperty({
    example: 'RFID-00417',
    nullable: true,
    type: String,
    description:
      "The gym system's own code for this member at this gym (Wellhub's `custom_code`), if it set one",
  })
  custom_code: string | null;
}

export class BeneficiaryVisitPageDto extends PageMetaDto {
  @ApiProperty({ type: [BeneficiaryVisitDto], description: 'Newest first' })
  data: BeneficiaryVisitDto[];
}
