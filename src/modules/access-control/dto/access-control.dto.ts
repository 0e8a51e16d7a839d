import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MEMBER_NUMBER_PATTERN } from '../../eligibility/track-usage-request';

/** The limits the hand-read bodies enforce (documented from here, see access-requests.ts). */
export const CUSTOM_CODE_MAX_LENGTH = 13;
export const WEBHOOK_SECRET_MAX_LENGTH = 100;
export const MEMBER_NUMBER_EXAMPLE = '1836547291045';

export class AccessErrorItemDto {
  @ApiProperty({ example: 'O membro 1836547291045 não tem check-in nesta academia para validar hoje.' })
  message: string;

  @ApiProperty({
    example: 'checkin.validation.notfound',
    description: "That platform's error key: stable, never translated",
  })
  key: string;

  @ApiProperty({ example: 'not_exists', description: "This service's label (see the error envelope)" })
  label: string;
}

class AccessErrorMetadataDto {
  @ApiProperty({ example: 0 })
  total: number;

  @ApiProperty({ example: 1 })
  errors: number;
}

/** Every refusal of these routes but 403. */
export class AccessErrorDto {
  @ApiProperty({ type: AccessErrorMetadataDto })
  metadata: AccessErrorMetadataDto;

  @ApiProperty({ type: [AccessErrorItemDto] })
  errors: AccessErrorItemDto[];
}

/** 403, in that platform's shape for a key that does not cover the gym. */
export class AccessForbiddenDto {
  @ApiProperty({ example: 'Esta chave não dá acesso à academia 100002.' })
  Message: string;
}

export class ValidateRequestDto {
  @ApiProperty({
    example: MEMBER_NUMBER_EXAMPLE,
    description: "The member's number (13 digits): `unique_token` of the `checkin` event, or read in the app",
    pattern: MEMBER_NUMBER_PATTERN.source,
  })
  gympass_id: string;

  @ApiPropertyOptional({
    example: 'RFID-00417',
    maxLength: CUSTOM_CODE_MAX_LENGTH,
    minLength: 1,
    description: "The gym system's own code for this member at this gym; stored for the pair",
  })
  custom_code?: string;
}

class ValidatedUserDto {
  @ApiProperty({ example: MEMBER_NUMBER_EXAMPLE })
  gympass_id: string;
}

class ValidatedProductDto {
  @ApiProperty({ example: 100001, description: "The plan's `product_id`" })
  id: number;

  @ApiProperty({ example: 'Musculação', description: "The plan's name" })
  description: string | null;
}

class ValidatedGymDto {
  @ApiProperty({ example: 100001 })
  id: number;

  @ApiProperty({ type: ValidatedProductDto, nullable: true, description: 'Null at a gym without plans' })
  product: ValidatedProductDto | null;
}

class ValidateResultsDto {
  @ApiProperty({ type: ValidatedUserDto })
  user: ValidatedUserDto;

  @ApiProperty({ type: ValidatedGymDto })
  gym: ValidatedGymDto;

  @ApiProperty({ example: '2026-11-22T10:02:11Z', description: 'ISO 8601, UTC, seconds' })
  validated_at: string;
}

class OkMetadataDto {
  @ApiProperty({ example: 1 })
  total: number;

  @ApiProperty({ example: 0 })
  errors: number;
}

export class ValidateResponseDto {
  @ApiProperty({ type: OkMetadataDto })
  metadata: { total: 1; errors: 0 };

  @ApiProperty({ type: ValidateResultsDto })
  results: ValidateResultsDto;
}

export class CustomCodeRequestDto {
  @ApiProperty({ example: 'RFID-00417', minLength: 1, maxLength: CUSTOM_CODE_MAX_LENGTH })
  custom_code: string;
}

export class SystemGymDto {
  @ApiProperty({ example: 100001, description: 'gym_id' })
  id: number;

  @ApiProperty({ example: true, description: 'The place is active' })
  enabled: boolean;
}

export class SystemGymsDto {
  @ApiProperty({ type: [SystemGymDto] })
  gyms: SystemGymDto[];
}

export class GymWebhookRequestItemDto {
  @ApiProperty({ example: 'checkin', enum: ['checkin'], description: 'The one event this service sends' })
  event: string;

  @ApiProperty({ example: 'https://erp.example.com/wellhub/checkin', maxLength: 2048 })
  url: string;

  @ApiProperty({
    example: 's3cr3t-shared-with-the-gym-system',
    minLength: 1,
    maxLength: WEBHOOK_SECRET_MAX_LENGTH,
    description: 'The HMAC-SHA1 key of `X-Gympass-Signature`; never returned',
  })
  secret: string;

  @ApiPropertyOptional({ example: true, description: "Add `email` and `phone_number` to each event's user" })
  additional_data?: boolean;
}

export class GymWebhooksRequestDto {
  @ApiProperty({ type: [GymWebhookRequestItemDto], description: 'An empty list removes the subscription' })
  webhooks: GymWebhookRequestItemDto[];
}

export class GymWebhookDto {
  @ApiProperty({ example: 'checkin' })
  event: string;

  @ApiProperty({ example: 'https://erp.example.com/wellhub/checkin' })
  url: string;
}

export class GymWebhooksDto {
  @ApiProperty({ type: [GymWebhookDto] })
  webhooks: GymWebhookDto[];
}

export class SimulateCheckInRequestDto {
  @ApiProperty({ example: MEMBER_NUMBER_EXAMPLE, pattern: MEMBER_NUMBER_PATTERN.source })
  gympass_user_id: string;

  @ApiPropertyOptional({
    example: 100001,
    description: "The plan's `product_id`; needed at a gym with more than one plan",
  })
  product_id?: number;
}
