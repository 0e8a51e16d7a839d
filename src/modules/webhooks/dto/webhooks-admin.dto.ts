import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../../common/http/paging';
import { DeliveryDto, EndpointStateDto } from './webhooks.dto';
import { LowercaseUuids } from '../../../common/validation/identifiers';

export class AdminDeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'queued', 'delivered', 'failed'] })
  @IsOptional()
  @Matches(/^(pending|queued|delivered|failed)$/, { message: 'validation.deliveryStatus' })
  @IsString()
  status?: string;

  @ApiPropertyOptional({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61', description: 'One place only' })
  @IsOptional()
  @LowercaseUuids()
  @MaxLength(36)
  @IsString()
  place_id?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    example: 'true',
    description: 'true: only deliveries that failed or wait for a retry after a failed attempt',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'validation.isBoolean' })
  failing?: string;
}

/** The filters of the delivery list, for its CSV export. */
export class AdminDeliveriesExportQueryDto extends OmitType(AdminDeliveriesQueryDto, [
  'page',
  'page_size',
] as const) {}

export class AdminDeliveryDto extends DeliveryDto {
  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  place_id: string;

  @ApiProperty({ example: 'Acme Paulista', nullable: true, type: String })
  place_name: string | null;

  @ApiProperty({
    type: EndpointStateDto,
    description: "The circuit breaker of the delivery's endpoint, as it is now",
  })
  endpoint_state: EndpointStateDto;
}

export class AdminDeliveryPageDto extends PageMetaDto {
  @ApiProperty({ type: [AdminDeliveryDto], description: 'Failed deliveries first, then newest first' })
  data: AdminDeliveryDto[];
}

export class AttemptDto {
  @ApiProperty({ example: 1, description: 'Counts on across redeliveries' })
  number: number;

  @ApiProperty({ example: 'https://erp.example.com/webhooks/checkins' })
  url: string;

  @ApiProperty({ example: 503, nullable: true, type: Number, description: 'Null when no answer came' })
  status_code: number | null;

  @ApiProperty({ example: 231 })
  duration_ms: number;

  @ApiProperty({
    example: '{"error":"maintenance"}',
    nullable: true,
    type: String,
    description: "The receiver's answer (its first 4 KB); CPFs masked for support",
  })
  response_body: string | null;

  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'Why no answer came (timeout, refused, ...)',
  })
  error: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.612-03:00' })
  created_at: string;
}

/** The delivery of the list, whose `attempts` is here the list of attempts rather than their count. */
export class AdminDeliveryDetailDto extends OmitType(AdminDeliveryDto, ['attempts'] as const) {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      id: 'evt_5f0c3a6e2b1d4c8f9a7b6c5d4e3f2a1b',
      type: 'CHECK_IN_CREATED',
      created_at: '2026-11-22T07:02:11.412-03:00',
    },
    description: 'The event body as sent (parsed JSON); CPFs masked for support',
  })
  payload: Record<string, unknown>;

  @ApiProperty({
    example: '3f6c1d2e-8a4b-4c1e-9f2a-7b5d0e6a1c93',
    nullable: true,
    type: String,
    description:
      'The `X-Request-Id` of the request that caused the event (null for events older than this field); ' +
      "the service's log lines of every attempt carry it as `requestId`",
  })
  request_id: string | null;

  @ApiProperty({ type: [AttemptDto], description: 'Every attempt, across redeliveries, oldest first' })
  attempts: AttemptDto[];
}
