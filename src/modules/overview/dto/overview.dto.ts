import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { EndpointStateDto } from '../../webhooks/dto/webhooks.dto';
import { LowercaseUuids } from '../../../common/validation/identifiers';

export class OverviewQueryDto {
  @ApiPropertyOptional({
    example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61',
    description: 'One place only (404 when the caller does not reach it)',
  })
  @IsOptional()
  @LowercaseUuids()
  @MaxLength(36)
  @IsString()
  place_id?: string;
}

export class CheckInBucketDto {
  @ApiProperty({
    example: '2026-11-22T07:00:00.000-03:00',
    description: 'Start of the hour, or of the day in BUSINESS_TIMEZONE',
  })
  start: string;

  @ApiProperty({
    example: 41,
    description:
      'Register and confirmation answers that recorded a visit (an idempotent replay counts again)',
  })
  recorded: number;

  @ApiProperty({ example: 52, description: 'Validate answers that said the beneficiary may enter' })
  eligible: number;

  @ApiProperty({ example: 3, description: 'Refused validate, register and confirmation answers' })
  refused: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { already_used: 2, usage_limit_reached: 1 },
    description: 'The refusals by label',
  })
  refusals: Record<string, number>;
}

export class CheckInOverviewDto {
  @ApiProperty({ type: [CheckInBucketDto], description: 'The last 24 hours, the current one last' })
  hourly: CheckInBucketDto[];

  @ApiProperty({ type: [CheckInBucketDto], description: 'The last 30 days, today last' })
  daily: CheckInBucketDto[];

  @ApiProperty({ type: CheckInBucketDto, description: 'The last 24 hours summed' })
  last_24_hours: CheckInBucketDto;

  @ApiProperty({ example: 87, description: 'Visits recorded since midnight in BUSINESS_TIMEZONE' })
  visits_today: number;
}

export class DeliveryOverviewDto {
  @ApiProperty({ example: 1893, description: 'Deliveries created in the last 24 hours' })
  created: number;

  @ApiProperty({ example: 1880, description: 'Of those, delivered' })
  delivered: number;

  @ApiProperty({ example: 2, description: 'Of those, failed after their last attempt' })
  failed: number;

  @ApiProperty({ example: 11, description: 'Pending or queued now, whenever created' })
  waiting: number;

  @ApiProperty({ example: 9, description: 'Of those waiting, the ones whose previous attempt failed' })
  retrying: number;

  @ApiProperty({ example: '2026-11-22T06:41:12.118-03:00', nullable: true, type: String })
  oldest_waiting_since: string | null;

  @ApiProperty({ example: 1259, nullable: true, type: Number, description: 'Its age in seconds' })
  oldest_waiting_seconds: number | null;
}

export class EndpointHealthDto {
  @ApiProperty({ example: '0f6c1c1e-4d55-4f7b-9a8e-2f1f8f0b7c11', description: 'The webhook (subscription)' })
  webhook_id: string;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  place_id: string;

  @ApiProperty({ example: 'Acme Paulista' })
  place_name: string;

  @ApiProperty({ example: '59TADO9F' })
  place_code: string;

  @ApiProperty({ example: 'https://erp.example.com/webhooks/checkins' })
  url: string;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ type: EndpointStateDto })
  delivery_state: EndpointStateDto;

  @ApiProperty({ example: 40, description: 'Deliveries created in the last 24 hours' })
  deliveries: number;

  @ApiProperty({ example: 3, description: 'Of those, failed' })
  failed: number;

  @ApiProperty({ example: 5, description: 'Of those, waiting for a retry' })
  retrying: number;

  @ApiProperty({ example: 0.2, description: '(failed + retrying) / deliveries; 0 without deliveries' })
  failure_rate: number;
}

export class MemberCheckInOverviewDto {
  @ApiProperty({ example: 3, description: 'Pending now (confirmable)' })
  pending: number;

  @ApiProperty({ example: 1, description: 'Expired unconfirmed in the last 24 hours' })
  expired: number;

  @ApiProperty({ example: 12, description: 'Confirmed in the last 24 hours' })
  validated: number;

  @ApiProperty({ example: 0, description: 'Cancelled or replaced in the last 24 hours' })
  cancelled: number;
}

export class OverviewWebhookDto {
  @ApiProperty({ example: '0f6c1c1e-4d55-4f7b-9a8e-2f1f8f0b7c11' })
  id: string;

  @ApiProperty({ example: 'https://erp.example.com/webhooks/checkins' })
  url: string;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ type: EndpointStateDto })
  delivery_state: EndpointStateDto;
}

export class OverviewPlaceDto {
  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  id: string;

  @ApiProperty({ example: 'Acme Paulista' })
  name: string;

  @ApiProperty({ example: '59TADO9F' })
  code: string;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: 14, description: 'Visits since midnight in BUSINESS_TIMEZONE' })
  visits_today: number;

  @ApiProperty({
    type: OverviewWebhookDto,
    nullable: true,
    description: 'Its CHECKIN webhook; null when none',
  })
  webhook: OverviewWebhookDto | null;
}

export class OverviewDto {
  @ApiProperty({ example: '2026-11-22T07:21:11.412-03:00' })
  generated_at: string;

  @ApiProperty({ type: CheckInOverviewDto })
  check_ins: CheckInOverviewDto;

  @ApiProperty({ type: DeliveryOverviewDto })
  deliveries: DeliveryOverviewDto;

  @ApiProperty({
    type: [EndpointHealthDto],
    description:
      'Endpoints in trouble, most failing first (at most 20): breaker open or counting failures, or deliveries of ' +
      'the last 24 hours failed or waiting for a retry',
  })
  endpoints: EndpointHealthDto[];

  @ApiProperty({ type: MemberCheckInOverviewDto })
  member_check_ins: MemberCheckInOverviewDto;

  @ApiProperty({
    type: [OverviewPlaceDto],
    nullable: true,
    description:
      'Each place reached (at most 50, by name) with its visits today and its webhook: for gym accounts and ' +
      'when `place_id` is given; null for staff overviews of every place',
  })
  places: OverviewPlaceDto[] | null;
}
