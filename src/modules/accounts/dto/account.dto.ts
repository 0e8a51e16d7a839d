import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '../entities/account.entity';

export class AccountDto {
  @ApiProperty({ example: 12 })
  id: number;

  @ApiProperty({ example: 'ana@acme.example' })
  email: string;

  @ApiProperty({ example: 'Ana Souza' })
  name: string;

  @ApiProperty({ example: 'gym', enum: ROLES })
  role: (typeof ROLES)[number];

  @ApiProperty({
    example: 7,
    nullable: true,
    type: Number,
    description: 'A gym account of a whole chain: every place of this partner, and the partner key',
  })
  partner_id: number | null;

  @ApiProperty({
    example: [],
    type: [String],
    description: 'A gym account of listed places: those places only (empty for chain and staff accounts)',
  })
  place_ids: string[];

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  created_at: string;

  @ApiProperty({ example: '2026-11-23T08:15:00.000-03:00', nullable: true, type: String })
  last_login_at: string | null;
}

export class PasswordLinkDto {
  @ApiProperty({
    example: 'https://gyms.example.com/console/#/set-password/3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0dQm1Yw2Xe4Rt',
    description:
      'One use; the token sits in the fragment, which browsers never send; in the path of /account/password-links/{token} every log line masks it',
  })
  url: string;

  @ApiProperty({ example: '2026-11-23T07:02:11.412-03:00', description: '24 hours after it was made' })
  expires_at: string;
}
