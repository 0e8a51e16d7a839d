import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class PartnerAuthRequestDto {
  @ApiProperty({
    example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d',
    description: '<PLACE_API_KEY>: the gym unit',
  })
  @MaxLength(256)
  @IsNotEmpty()
  @IsString()
  place_api_key: string;

  @ApiProperty({
    example: 'ptk_9ZtQe1Lr4mNc7Bv2Xw6Ys0Ua3Hd8Kf5j',
    description: '<PARTNER_API_KEY>: the chain',
  })
  @MaxLength(256)
  @IsNotEmpty()
  @IsString()
  partner_api_key: string;
}

export class AuthPartnerDto {
  @ApiProperty({ example: 'Acme Fitness' })
  name: string;

  @ApiProperty({ example: 'ptk_9ZtQe1Lr4mNc7Bv2Xw6Ys0Ua3Hd8Kf5j' })
  partnerApiKey: string;
}

export class AuthPlaceDto {
  @ApiProperty({ example: 'Acme Paulista' })
  name: string;

  @ApiProperty({ example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d' })
  placeApiKey: string;
}

export class PartnerAuthResponseDto {
  @ApiProperty({ type: AuthPartnerDto })
  partner: AuthPartnerDto;

  @ApiProperty({ type: AuthPlaceDto })
  place: AuthPlaceDto;

  @ApiProperty({
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...',
    description: 'JWT (HS256), valid for 24 hours',
  })
  token: string;
}
