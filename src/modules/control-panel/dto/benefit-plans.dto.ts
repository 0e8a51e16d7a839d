import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { MAX_UNSIGNED_INT, OmitOrValidate } from './optional';

/** The catalogue's sentence names MAX_UNSIGNED_INT (4294967295) as the upper bound. */
const LIMIT_MESSAGE = { message: 'validation.monthlyVisitLimit' };

export class CreateBenefitPlanDto {
  @ApiProperty({ example: 'GOLD', description: '1 to 32 characters A-Z 0-9 _ -; stored upper-case, unique' })
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'validation.benefitPlanCode' })
  @IsString()
  code: string;

  @ApiProperty({ example: 'Gold' })
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name: string;

  @ApiProperty({ example: 3, description: 'Highest gym plan tier this benefit plan gives access to' })
  @Max(MAX_UNSIGNED_INT)
  @Min(0)
  @IsInt()
  tier: number;

  @ApiProperty({
    example: 12,
    nullable: true,
    type: Number,
    description:
      'Visits per calendar month (BUSINESS_TIMEZONE); null = unlimited. Required: send null explicitly',
  })
  @ValidateIf((_object, value) => value !== null)
  @Max(MAX_UNSIGNED_INT, LIMIT_MESSAGE)
  @Min(1, LIMIT_MESSAGE)
  @IsInt(LIMIT_MESSAGE)
  monthly_visit_limit: number | null;

  @ApiPropertyOptional({ example: true, default: false })
  @IsOptional()
  @IsBoolean()
  meal_plan?: boolean | null;

  @ApiPropertyOptional({ example: false, default: false })
  @IsOptional()
  @IsBoolean()
  appointment?: boolean | null;
}

export class UpdateBenefitPlanDto {
  @ApiPropertyOptional({ example: 'Gold Plus' })
  @OmitOrValidate()
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name?: string;

  @ApiPropertyOptional({ example: 3 })
  @OmitOrValidate()
  @Max(MAX_UNSIGNED_INT)
  @Min(0)
  @IsInt()
  tier?: number;

  @ApiPropertyOptional({ example: 16, nullable: true, type: Number, description: 'null = unlimited' })
  @IsOptional()
  @Max(MAX_UNSIGNED_INT, LIMIT_MESSAGE)
  @Min(1, LIMIT_MESSAGE)
  @IsInt(LIMIT_MESSAGE)
  monthly_visit_limit?: number | null;

  @ApiPropertyOptional({ example: true })
  @OmitOrValidate()
  @IsBoolean()
  meal_plan?: boolean;

  @ApiPropertyOptional({ example: true })
  @OmitOrValidate()
  @IsBoolean()
  appointment?: boolean;

  @ApiPropertyOptional({ example: false, description: 'false: its beneficiaries answer not_exists' })
  @OmitOrValidate()
  @IsBoolean()
  active?: boolean;
}

export class BenefitPlanDto {
  @ApiProperty({ example: 'GOLD' })
  code: string;

  @ApiProperty({ example: 'Gold' })
  name: string;

  @ApiProperty({ example: 3 })
  tier: number;

  @ApiProperty({ example: 12, nullable: true, type: Number, description: 'null = unlimited' })
  monthly_visit_limit: number | null;

  @ApiProperty({ example: true })
  meal_plan: boolean;

  @ApiProperty({ example: false })
  appointment: boolean;

  @ApiProperty({ example: true })
  active: boolean;
}
