import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

export class CreatePartnerDto {
  @ApiProperty({ example: 'Acme Fitness', description: 'The chain or integrator' })
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name: string;
}

export class PartnerDto {
  @ApiProperty({ example: 7 })
  id: number;

  @ApiProperty({ example: 'Acme Fitness' })
  name: string;

  @ApiProperty({ example: 'ptk_9ZtQe1Lr4mNc7Bv2Xw6Ys0Ua3Hd8Kf5j' })
  partner_api_key: string;
}

export class PartnerKeyDto {
  @ApiProperty({
    example: 'ptk_9ZtQe1Lr4mNc7Bv2Xw6Ys0Ua3Hd8Kf5j',
    description: 'The new key; the old one stops working at once',
  })
  partner_api_key: string;
}

export class CreatePlaceDto {
  @ApiProperty({ example: 7 })
  @Min(1)
  @IsInt()
  partner_id: number;

  @ApiProperty({ example: 'Acme Paulista' })
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name: string;

  @ApiPropertyOptional({ example: '59TADO9F', description: '8 characters A-Z 0-9; generated when absent' })
  @IsOptional()
  @Matches(/^[A-Z0-9]{8}$/, { message: 'code must be 8 characters A-Z and 0-9' })
  @IsString()
  code?: string;

  @ApiPropertyOptional({ example: true, default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class UpdatePlaceDto {
  @ApiPropertyOptional({ example: 'Acme Paulista 24h' })
  @IsOptional()
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name?: string;

  @ApiPropertyOptional({
    example: false,
    description: 'false delists the gym: check-ins answer gym_inactive',
  })
  @IsOptional()
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

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d' })
  place_api_key: string;
}

export class PlaceKeyDto {
  @ApiProperty({
    example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d',
    description: 'The new key; the old one stops working at once',
  })
  place_api_key: string;
}

export class CreatePlanDto {
  @ApiProperty({ example: 'Musculação' })
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name: string;

  @ApiPropertyOptional({ example: 'B0KR5QWH', description: '8 characters A-Z 0-9; generated when absent' })
  @IsOptional()
  @Matches(/^[A-Z0-9]{8}$/, { message: 'code must be 8 characters A-Z and 0-9' })
  @IsString()
  code?: string;

  @ApiProperty({
    example: 2,
    description: 'Category of the plan; a benefit plan of a lower tier cannot use it',
  })
  @Min(0)
  @IsInt()
  tier: number;

  @ApiPropertyOptional({ example: 'ERP-PLAN-77', description: "The gym's own reference" })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  externalReference?: string;
}

export class AdminPlanDto {
  @ApiProperty({ example: 12 })
  id: number;

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

  @ApiProperty({ example: null, nullable: true, type: String })
  deletedAt: Date | null;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  placeId: string;

  @ApiProperty({ example: 'ERP-PLAN-77', nullable: true, type: String })
  externalReference: string | null;
}

export class PlaceDetailDto extends PlaceDto {
  @ApiProperty({ type: [AdminPlanDto], description: 'Active plans' })
  plans: AdminPlanDto[];
}

export class PartnerDetailDto extends PartnerDto {
  @ApiProperty({ type: [PlaceDto] })
  places: PlaceDto[];
}

export class TrackUsagesQueryDto {
  @ApiPropertyOptional({ example: '2026-11-01T00:00:00-03:00', description: 'ISO 8601; inclusive' })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({ example: '2026-12-01T00:00:00-03:00', description: 'ISO 8601; exclusive' })
  @IsOptional()
  @IsString()
  to?: string;

  @ApiPropertyOptional({ example: '1', description: '1-based; 50 visits a page, newest first' })
  @IsOptional()
  @Matches(/^[1-9]\d{0,5}$/, { message: 'page must be a positive integer' })
  @IsString()
  page?: string;
}

export class VisitDto {
  @ApiProperty({ example: '1042' })
  id: string;

  @ApiProperty({ example: 'EQ2B3FBK' })
  beneficiary_code: string;

  @ApiProperty({ example: '11144477735' })
  cpf: string;

  @ApiProperty({ example: 'B0KR5QWH', nullable: true, type: String })
  plan_code: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00', description: 'In BUSINESS_TIMEZONE' })
  created_at: string;
}

export class VisitPageDto {
  @ApiProperty({ type: [VisitDto] })
  data: VisitDto[];

  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 50 })
  page_size: number;

  @ApiProperty({ example: 1 })
  total: number;
}
