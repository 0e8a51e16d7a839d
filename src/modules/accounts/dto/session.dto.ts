import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_LINK_PURPOSES } from '../entities/password-link.entity';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../password-hasher';
import { AccountDto } from './account.dto';

export class LoginDto {
  @ApiProperty({ example: 'ana@acme.example', description: 'Case does not matter' })
  @MaxLength(255)
  @IsString()
  email: string;

  @ApiProperty({ example: 'correct horse battery staple' })
  @MaxLength(PASSWORD_MAX_LENGTH)
  @IsString()
  password: string;
}

export class SessionDto {
  @ApiProperty({ type: AccountDto })
  account: AccountDto;

  @ApiProperty({
    example: 'Zx1oQ3b8yJc6m0Vq2Hn5Rt7Wk9Lp4Ds1Fg6Ah3Ej8Uo',
    description: 'Send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE made with this session',
  })
  csrf_token: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { places: ['list', 'show', 'reveal', 'rotate'], deliveries: ['list', 'show', 'redeliver'] },
    description:
      "What the console may offer this session, by resource and action: the actions whose control-panel route the account's role may call",
  })
  permissions: Record<string, string[]>;
}

export class PasswordLinkInfoDto {
  @ApiProperty({ example: 'ana@acme.example' })
  email: string;

  @ApiProperty({ example: 'Ana Souza' })
  name: string;

  @ApiProperty({ example: 'invitation', enum: PASSWORD_LINK_PURPOSES })
  purpose: (typeof PASSWORD_LINK_PURPOSES)[number];

  @ApiProperty({ example: '2026-11-23T07:02:11.412-03:00' })
  expires_at: string;
}

export class SetPasswordDto {
  @ApiProperty({ example: 'correct horse battery staple', minLength: 12, maxLength: 256 })
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: 'validation.passwordLength' })
  @IsString()
  password: string;
}
