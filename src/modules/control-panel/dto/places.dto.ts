import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../../common/http/paging';
import { MAX_UNSIGNED_INT, OmitOrValidate } from './optional';
import { LowercaseUuids } from '../../../common/validation/identifiers';

const CODE = /^[A-Z0-9]{8}$/;
const CODE_MESSAGE = { message: 'validation.eightCharacterCode' };

export class CreatePlaceDto {
  @ApiProperty({ example: 7, description: 'id from POST /admin/partners' })
  @Min(1)
  @IsInt()
  partner_id: number;

  @ApiProperty({ example: 'Acme Paulista' })
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name: string;

  @ApiPropertyOptional({
    example: '59TADO9F',
    description: '8 characters A-Z 0-9, unique; generated when absent',
  })
  @IsOptional()
  @Matches(CODE, CODE_MESSAGE)
  @IsString()
  code?: string | null;

  @ApiPropertyOptional({ example: true, default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean | null;
}

export class UpdatePlaceDto {
  @ApiPropertyOptional({ example: 'Acme Paulista 24h' })
  @OmitOrValidate()
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name?: string;

  @ApiPropertyOptional({
    example: false,
    description: 'false delists the gym: its check-ins answer gym_inactive at once',
  })
  @OmitOrValidate()
  @IsBoolean()
  active?: boolean;
}

export class PlaceDto {
  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  id: string;

  @ApiProperty({ example: 7 })
  partner_id: number;

  @ApiProperty({ example: 'Acme Paulista' })
  name: string;

  @ApiProperty({ example: '59TADO9F' })
  code: string;

  @ApiProperty({
    example: 100001,
    description: "The gym's number in the Wellhub-compatible access control (`X-Gym-Id`, `gym.id`)",
  })
  gym_id: number;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({
    example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d',
    description:
      'The current key, decrypted from its sealed copy: whole for operators, masked (`plk_3q2x…Lp0d`) for ' +
      'support and gym accounts (a gym reveals it with POST /admin/places/:id/keys/reveal)',
  })
  place_api_key: string;
}

export class PlaceKeyDto {
  @ApiProperty({
    example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d',
    description: 'The new key; the old one and the bearer tokens issued with it stop working at once',
  })
  place_api_key: string;
}

export class CreatePlanDto {
  @ApiProperty({ example: 'Musculação' })
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name: string;

  @ApiPropertyOptional({
    example: 'B0KR5QWH',
    description: '8 characters A-Z 0-9, unique; generated when absent',
  })
  @IsOptional()
  @Matches(CODE, CODE_MESSAGE)
  @IsString()
  code?: string | null;

  @ApiProperty({
    example: 2,
    description: 'Category of the plan; a beneficiary whose benefit plan has a lower tier cannot use it',
  })
  @Max(MAX_UNSIGNED_INT)
  @Min(0)
  @IsInt()
  tier: number;

  @ApiPropertyOptional({ example: 'ERP-PLAN-77', nullable: true, description: "The gym's own reference" })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  externalReference?: string | null;
}

export class AdminPlanDto {
  @ApiProperty({ example: 12 })
  id: number;

  @ApiProperty({
    example: 100012,
    description: "The plan's number in the Wellhub-compatible access control (`gym.product.id`): id + 100000",
  })
  product_id: number;

  @ApiProperty({ example: 'Musculação' })
  name: string;

  @ApiProperty({ example: 'B0KR5QWH' })
  code: string;

  @ApiProperty({ example: 2 })
  tier: number;

  @ApiProperty({ example: '2026-10-01T12:00:00.000Z' })
  createdAt: Date;

  @ApiProperty({ example: '2026-10-01T12:00:00.000Z' })
  updatedAt: Date;

  @ApiProperty({ example: null, nullable: true, type: String, description: 'Set when the plan is deleted' })
  deletedAt: Date | null;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  placeId: string;

  @ApiProperty({ example: 'ERP-PLAN-77', nullable: true, type: String })
  externalReference: string | null;
}

export class PlaceDetailDto extends PlaceDto {
  @ApiProperty({ type: [AdminPlanDto], description: 'Plans not deleted, oldest first' })
  plans: AdminPlanDto[];
}

export class TrackUsagesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: '2026-11-01',
    description:
      'Inclusive. `YYYY-MM-DD` (start of that day) or an ISO 8601 date and time; without an offset, ' +
      'in BUSINESS_TIMEZONE',
  })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description:
      'Exclusive for a date and time; `YYYY-MM-DD` includes that whole day. Without an offset, in BUSINESS_TIMEZONE',
  })
  @IsOptional()
  @IsString()
  to?: string;
}

export class VisitDto {
  @ApiProperty({ example: '1042' })
  id: string;

  @ApiProperty({ example: 'EQ2B3FBK' })
  beneficiary_code: string;

  @ApiProperty({ example: '11144477735', description: 'Masked (`111.***.***-35`) for support' })
  cpf: string;

  @ApiProperty({ example: 'B0KR5QWH', nullable: true, type: String })
  plan_code: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00', description: 'With the BUSINESS_TIMEZONE offset' })
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

export class VisitPageDto {
  @ApiProperty({ type: [VisitDto] })
  data: VisitDto[];

  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 50 })
  page_size: number;

  @ApiProperty({ example: 1, description: 'Visits matching the filter, over all pages' })
  total: number;
}

export class PlacesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'paulista', description: 'Part of the name or of the code' })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  q?: string;

  @ApiPropertyOptional({ example: '7', description: 'Places of this partner only' })
  @IsOptional()
  @Matches(/^[1-9]\d{0,9}$/, { message: 'validation.positiveInteger' })
  @IsString()
  partner_id?: string;
}

export class PlaceListItemDto {
  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  id: string;

  @ApiProperty({ example: 7 })
  partner_id: number;

  @ApiProperty({ example: 'Acme Fitness' })
  partner_name: string;

  @ApiProperty({ example: 'Acme Paulista' })
  name: string;

  @ApiProperty({ example: '59TADO9F' })
  code: string;

  @ApiProperty({ example: 100001, description: "The gym's `gym_id` (Wellhub-compatible access control)" })
  gym_id: number;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: true, description: 'An active CHECKIN webhook is subscribed' })
  webhook_subscribed: boolean;
}

export class PlacePageDto extends PageMetaDto {
  @ApiProperty({ type: [PlaceListItemDto], description: 'By name' })
  data: PlaceListItemDto[];
}

export class VisitsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61', description: 'One place only' })
  @IsOptional()
  @LowercaseUuids()
  @MaxLength(36)
  @IsString()
  place_id?: string;

  @ApiPropertyOptional({
    example: '2026-11-01',
    description:
      'Inclusive. `YYYY-MM-DD` or an ISO 8601 date and time; without an offset, in BUSINESS_TIMEZONE',
  })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description: 'Exclusive for a date and time; `YYYY-MM-DD` includes that whole day',
  })
  @IsOptional()
  @IsString()
  to?: string;
}

/** The filters of the visit list, for its CSV export. */
export class VisitsExportQueryDto extends OmitType(VisitsQueryDto, ['page', 'page_size'] as const) {}

export class VisitListItemDto extends VisitDto {
  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  place_id: string;

  @ApiProperty({ example: 'Acme Paulista', nullable: true, type: String })
  place_name: string | null;
}

export class VisitListPageDto extends PageMetaDto {
  @ApiProperty({ type: [VisitListItemDto], description: 'Newest first' })
  data: VisitListItemDto[];
}

export class RevealedKeysDto {
  @ApiProperty({ example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d' })
  place_api_key: string;

  @ApiProperty({
    example: 'ptk_9ZtQe1Lr4mNc7Bv2Xw6Ys0Ua3Hd8Kf5j',
    nullable: true,
    type: String,
    description: 'For operators and chain accounts of the partner; null for an account of listed places',
  })
  partner_api_key: string | null;
}
