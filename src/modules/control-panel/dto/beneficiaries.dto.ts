import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';

export class CreateBenefitPlanDto {
  @ApiProperty({ example: 'GOLD', description: 'Up to 32 characters A-Z 0-9 _ -' })
  @Matches(/^[A-Za-z0-9_-]{1,32}$/, { message: 'code must be 1 to 32 characters A-Z, 0-9, _ or -' })
  @IsString()
  code: string;

  @ApiProperty({ example: 'Gold' })
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name: string;

  @ApiProperty({ example: 3, description: 'Highest gym plan tier this benefit plan gives access to' })
  @Min(0)
  @IsInt()
  tier: number;

  @ApiProperty({
    example: 12,
    nullable: true,
    type: Number,
    description: 'Visits per calendar month; null = unlimited',
  })
  @ValidateIf((_object, value) => value !== null)
  @Min(0)
  @IsInt()
  monthly_visit_limit: number | null;

  @ApiPropertyOptional({ example: true, default: false })
  @IsOptional()
  @IsBoolean()
  meal_plan?: boolean;

  @ApiPropertyOptional({ example: false, default: false })
  @IsOptional()
  @IsBoolean()
  appointment?: boolean;
}

export class UpdateBenefitPlanDto {
  @ApiPropertyOptional({ example: 'Gold Plus' })
  @IsOptional()
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ example: 3 })
  @IsOptional()
  @Min(0)
  @IsInt()
  tier?: number;

  @ApiPropertyOptional({ example: 16, nullable: true, type: Number })
  @IsOptional()
  @ValidateIf((_object, value) => value !== null)
  @Min(0)
  @IsInt()
  monthly_visit_limit?: number | null;

  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  meal_plan?: boolean;

  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  appointment?: boolean;

  @ApiPropertyOptional({ example: false, description: 'false: its beneficiaries answer not_exists' })
  @IsOptional()
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

  @ApiProperty({ example: 12, nullable: true, type: Number })
  monthly_visit_limit: number | null;

  @ApiProperty({ example: true })
  meal_plan: boolean;

  @ApiProperty({ example: false })
  appointment: boolean;

  @ApiProperty({ example: true })
  active: boolean;
}

export class BeneficiaryFieldsDto {
  @ApiPropertyOptional({ example: 'joana@example.com', nullable: true, type: String })
  @IsOptional()
  @MaxLength(255)
  @IsEmail({}, { message: 'email must be an email address' })
  @IsString()
  email?: string | null;

  @ApiPropertyOptional({ example: '+5511988887777', nullable: true, type: String })
  @IsOptional()
  @MaxLength(32)
  @IsString()
  phone?: string | null;

  @ApiPropertyOptional({ example: '1991-02-03', nullable: true, type: String, description: 'YYYY-MM-DD' })
  @IsOptional()
  @Matches(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, {
    message: 'birthday must be a date as YYYY-MM-DD',
  })
  @IsString()
  birthday?: string | null;

  @ApiPropertyOptional({ example: true, default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class CreateBeneficiaryDto extends BeneficiaryFieldsDto {
  @ApiProperty({
    example: '111.444.777-35',
    description: 'Punctuation is stripped; check digits are verified',
  })
  @MaxLength(20)
  @IsString()
  cpf: string;

  @ApiProperty({ example: 'Joana Lima' })
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name: string;

  @ApiProperty({ example: 'GOLD' })
  @MaxLength(32)
  @IsString()
  benefit_plan_code: string;

  @ApiPropertyOptional({ example: 'EQ2B3FBK', description: '8 characters A-Z 0-9; generated when absent' })
  @IsOptional()
  @Matches(/^[A-Z0-9]{8}$/, { message: 'code must be 8 characters A-Z and 0-9' })
  @IsString()
  code?: string;
}

export class UpdateBeneficiaryDto extends BeneficiaryFieldsDto {
  @ApiPropertyOptional({ example: 'Joana Lima Souza' })
  @IsOptional()
  @MaxLength(255)
  @IsNotEmpty()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ example: 'SILVER' })
  @IsOptional()
  @MaxLength(32)
  @IsString()
  benefit_plan_code?: string;
}

export class BeneficiaryDto {
  @ApiProperty({ example: '11144477735' })
  cpf: string;

  @ApiProperty({ example: 'EQ2B3FBK' })
  code: string;

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

export class BulkImportDto {
  @ApiProperty({
    description: 'Up to 10,000 rows, each shaped like POST /admin/beneficiaries; upsert by CPF',
    example: [
      { cpf: '11144477735', name: 'Joana Lima', benefit_plan_code: 'GOLD' },
      {
        cpf: '52998224725',
        name: 'Pedro Alves',
        email: 'pedro@example.com',
        benefit_plan_code: 'BASIC',
        active: false,
      },
    ],
  })
  @IsArray()
  beneficiaries: unknown[];
}

export class BulkErrorDto {
  @ApiProperty({ example: 3, description: 'Index of the row in the request' })
  index: number;

  @ApiProperty({ example: 'invalid_parameter' })
  label: string;

  @ApiProperty({ example: 'cpf has wrong check digits' })
  message: string;
}

export class BulkImportResultDto {
  @ApiProperty({ example: 9998 })
  created: number;

  @ApiProperty({ example: 1 })
  updated: number;

  @ApiProperty({ type: [BulkErrorDto] })
  errors: BulkErrorDto[];
}
