import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';
import { IsEmailAddress } from '../../../common/validation/is-email-address';
import { PageMetaDto, PageQueryDto } from '../../../common/http/paging';
import { OmitOrValidate } from '../../control-panel/dto/optional';
import { ROLES } from '../entities/account.entity';
import type { Role } from '../entities/account.entity';
import { AccountDto, PasswordLinkDto } from './account.dto';
import { LowercaseUuids } from '../../../common/validation/identifiers';

/** How many places one gym account may list. */
export const MAX_ACCOUNT_PLACES = 500;

class AccountScopeDto {
  @ApiPropertyOptional({
    example: null,
    nullable: true,
    type: Number,
    description: 'gym only: a chain account of this partner (all its places, and the partner key)',
  })
  @IsOptional()
  @Min(1)
  @IsInt()
  partner_id?: number | null;

  @ApiPropertyOptional({
    example: ['5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61'],
    type: [String],
    description: 'gym only: an account of these places only (no partner key). Replaces the list on PATCH',
  })
  @IsOptional()
  @LowercaseUuids()
  @MaxLength(36, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(MAX_ACCOUNT_PLACES)
  @IsArray()
  place_ids?: string[] | null;
}

export class CreateAccountDto extends AccountScopeDto {
  @ApiProperty({ example: 'ana@acme.example', description: 'Unique, case-insensitive; stored in lower case' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @MaxLength(255)
  @IsEmailAddress({ message: 'validation.isEmail' })
  @IsString()
  email: string;

  @ApiProperty({ example: 'Ana Souza' })
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name: string;

  @ApiProperty({
    example: 'gym',
    enum: ROLES,
    description: 'A gym account needs partner_id or place_ids (not both); operator and support neither',
  })
  @IsIn(ROLES, { message: 'validation.role' })
  @IsString()
  role: Role;
}

export class UpdateAccountDto extends AccountScopeDto {
  @ApiPropertyOptional({ example: 'Ana Souza Lima' })
  @OmitOrValidate()
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name?: string;

  @ApiPropertyOptional({
    example: 'support',
    enum: ROLES,
    description: 'Leaving gym clears the scope; becoming gym needs partner_id or place_ids',
  })
  @OmitOrValidate()
  @IsIn(ROLES, { message: 'validation.role' })
  @IsString()
  role?: Role;

  @ApiPropertyOptional({
    example: false,
    description: 'false disables the account: its sessions end at once',
  })
  @OmitOrValidate()
  @IsBoolean()
  active?: boolean;
}

export class AccountsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'acme', description: 'Part of the e-mail or the name' })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  q?: string;

  @ApiPropertyOptional({ enum: ROLES })
  @IsOptional()
  @IsIn(ROLES, { message: 'validation.role' })
  @IsString()
  role?: Role;
}

export class AccountCreatedDto {
  @ApiProperty({ type: AccountDto })
  account: AccountDto;

  @ApiProperty({ type: PasswordLinkDto, description: 'The invitation (24 h, one use); shown only here' })
  password_link: PasswordLinkDto;
}

export class AccountPageDto extends PageMetaDto {
  @ApiProperty({ type: [AccountDto], description: 'By e-mail' })
  data: AccountDto[];
}
