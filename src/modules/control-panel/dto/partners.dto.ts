import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { PlaceDto } from './places.dto';

export class CreatePartnerDto {
  @ApiProperty({ example: 'Acme Fitness', description: 'The chain or integrator' })
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
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
    description: 'The new key; the old one and the bearer tokens issued with it stop working at once',
  })
  partner_api_key: string;
}

export class PartnerDetailDto extends PartnerDto {
  @ApiProperty({ type: [PlaceDto], description: 'Its places, oldest first' })
  places: PlaceDto[];
}
