import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';

export class WebhookRequestDto {
  @ApiProperty({
    example: 'https://erp.example.com/webhooks/checkins',
    description: 'https; at most 2048 characters',
  })
  webhook_url: string;

  @ApiProperty({ example: 'CHECKIN', enum: ['CHECKIN'] })
  webhook_type: string;
}

export class EndpointStateDto {
  @ApiProperty({
    example: 'closed',
    enum: ['closed', 'open', 'half_open'],
    description:
      "The endpoint's circuit breaker: `open` after WEBHOOK_BREAKER_FAILURES failed attempts in a row (deliveries wait, none is failed for it), `half_open` when one probe may go, `closed` again after a success",
  })
  state: 'closed' | 'open' | 'half_open';

  @ApiProperty({ example: 0, description: 'Failed attempts since the last success' })
  consecutive_failures: number;

  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'While open: when a probe may go',
  })
  open_until: string | null;

  @ApiProperty({ example: null, nullable: true, type: String })
  last_error: string | null;

  @ApiProperty({ example: null, nullable: true, type: String })
  last_failure_at: string | null;

  @ApiPropertyOptional({
    example: null,
    nullable: true,
    type: String,
    description:
      'Control panel only: while failing, its first failed attempt after its last success (among the last 30 ' +
      'days of deliveries)',
  })
  failing_since?: string | null;
}

export class WebhookDto {
  @ApiProperty({ example: '0f6c1c1e-4d55-4f7b-9a8e-2f1f8f0b7c11' })
  id: string;

  @ApiProperty({ example: 'https://erp.example.com/webhooks/checkins' })
  webhook_url: string;

  @ApiProperty({ example: 'CHECKIN' })
  webhook_type: string;

  @ApiProperty({ example: true })
  active: boolean;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  created_at: string;

  @ApiPropertyOptional({
    type: EndpointStateDto,
    description: 'How deliveries to this URL are going (GET only)',
  })
  delivery_state?: EndpointStateDto;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Signing secret (Standard Webhooks). Shown here only; keep it to verify webhook-signature.',
  })
  secret: string;
}

export class WebhookCreatedResponseDto {
  @ApiProperty({ example: 'success' })
  status: 'success';

  @ApiProperty({ example: 201 })
  code: number;

  @ApiProperty({ type: CreatedWebhookDto })
  webhook: CreatedWebhookDto;
}

export class WebhookUpdatedResponseDto {
  @ApiProperty({ example: 'success' })
  status: 'success';

  @ApiProperty({ example: 200 })
  code: number;

  @ApiProperty({ type: WebhookDto })
  webhook: WebhookDto;
}

export class WebhookDeletedResponseDto {
  @ApiProperty({ example: 'success' })
  status: 'success';

  @ApiProperty({ example: 200 })
  code: number;
}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto] })
  webhooks: WebhookDto[];
}

export class DeliveriesQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'queued', 'delivered', 'failed'] })
  @IsOptional()
  @Matches(/^(pending|queued|delivered|failed)$/, {
    message: 'validation.deliveryStatus',
  })
  @IsString()
  status?: string;

  @ApiPropertyOptional({ example: '1', description: '1-based; 50 deliveries a page, newest first' })
  @IsOptional()
  @Matches(/^[1-9]\d{0,5}$/, { message: 'validation.positiveInteger' })
  @IsString()
  page?: string;
}

export class DeliveryDto {
  @ApiProperty({ example: 'dlv_0c1f4e0a9b8d4c7e8f6a5b4c3d2e1f00' })
  id: string;

  @ApiProperty({ example: 'evt_5f0c3a6e2b1d4c8f9a7b6c5d4e3f2a1b', description: 'Also the webhook-id header' })
  event_id: string;

  @ApiProperty({ example: 'CHECK_IN_CREATED' })
  event_type: string;

  @ApiProperty({ example: 'https://erp.example.com/webhooks/checkins' })
  url: string;

  @ApiProperty({ example: 'delivered', enum: ['pending', 'queued', 'delivered', 'failed'] })
  status: string;

  @ApiProperty({ example: 1 })
  attempts: number;

  @ApiProperty({ example: 200, nullable: true, type: Number })
  last_status_code: number | null;

  @ApiProperty({ example: null, nullable: true, type: String })
  last_error: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.612-03:00', nullable: true, type: String })
  last_attempt_at: string | null;

  @ApiProperty({ example: null, nullable: true, type: String })
  next_attempt_at: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.612-03:00', nullable: true, type: String })
  delivered_at: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  created_at: string;
}

export class DeliveryPageDto {
  @ApiProperty({ type: [DeliveryDto] })
  data: DeliveryDto[];

  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 50 })
  page_size: number;

  @ApiProperty({ example: 1 })
  total: number;
}

export class AcceptedDto {
  @ApiProperty({ example: 'accepted' })
  status: 'accepted';

  @ApiProperty({ example: 202 })
  code: number;

  @ApiProperty({ example: 'dlv_0c1f4e0a9b8d4c7e8f6a5b4c3d2e1f00' })
  delivery_id: string;

  @ApiProperty({ example: 'evt_5f0c3a6e2b1d4c8f9a7b6c5d4e3f2a1b' })
  event_id: string;
}
