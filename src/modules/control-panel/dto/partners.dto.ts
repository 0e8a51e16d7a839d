import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../../common/http/paging';
import { PlaceDto } from './places.dto';

export class CreatePartnerDto {
  @ApiProperty({ example: 'Acme Fitness', description: 'The chain or integrator' })
  @MaxLength(255)
  @Matches(/\S/, { message: 'validation.notBlank' })
  @IsString()
  name: string;
}

export class UpdatePartnerDto {
  @ApiProperty({ example: 'Acme Fitness Brasil', description: 'The new name' })
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

  @ApiProperty({
    example: 'ptk_9ZtQe1Lr4mNc7Bv2Xw6Ys0Ua3Hd8Kf5j',
    description: 'Whole for operators; masked (`ptk_9ZtQ…Kf5j`) for support',
  })
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

export class PartnersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'acme', description: 'Part of the name' })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  q?: string;
}

export class PartnerListItemDto {
  @ApiProperty({ example: 7 })
  id: number;

  @ApiProperty({ example: 'Acme Fitness' })
  name: string;

  @ApiProperty({ example: 3 })
  places_count: number;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  created_at: string;
}

export class PartnerPageDto extends PageMetaDto {
  @ApiProperty({ type: [PartnerListItemDto], description: 'By name' })
  data: PartnerListItemDto[];
}
