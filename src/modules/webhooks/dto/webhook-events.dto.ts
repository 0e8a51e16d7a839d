import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHECK_IN_CANCELLED, CHECK_IN_CREATED, CHECK_IN_VALIDATED, TEST_EVENT } from '../webhooks.constants';

/**
 * The bodies the service POSTs to a `CHECKIN` subscription's URL. The outbox and the test event build them with
 * these types, so a field sent is a field documented.
 */

const TIME = '2026-11-22T07:02:11.412-03:00';
const TIME_DESCRIPTION = "ISO 8601 with the offset of the service's BUSINESS_TIMEZONE";

export class WebhookEventPlaceDto {
  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e62', description: 'The place (gym) uuid' })
  place: string;

  @ApiProperty({ example: 'Demo Fitness Pinheiros' })
  name: string;

  @ApiProperty({ example: '59TADO9F', description: "The place's code (service_provider_code)" })
  code: string;
}

export class WebhookEventUserDto {
  @ApiProperty({ example: 'Maria Souza' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'maria@example.com' })
  email: string | null;

  @ApiProperty({ type: String, nullable: true, example: '+5511999990000' })
  phone: string | null;

  @ApiProperty({ example: '11144477735', description: 'The CPF, 11 digits' })
  document_number: string;

  @ApiProperty({ enum: ['cpf'], example: 'cpf' })
  document_type: 'cpf';

  @ApiProperty({ example: 'EQ2B3FBK', description: "The beneficiary's code" })
  code: string;
}

export class WebhookEventCheckInDto {
  @ApiProperty({
    example: '0b9f5d2e-3c1a-4f7e-8a6b-2d4c6e8f0a1b',
    description: 'The visit, or the member check-in (app check-ins)',
  })
  id: string;

  @ApiPropertyOptional({
    example: '482913',
    description: "A member check-in's 6-digit token, which the member shows at the desk",
  })
  token?: string;

  @ApiProperty({
    enum: ['pending', 'validated', 'cancelled'],
    example: 'validated',
    description: '`validated` for a visit the gym recorded itself; `pending` for a new app check-in',
  })
  status: 'pending' | 'validated' | 'cancelled';

  @ApiProperty({ example: TIME, description: TIME_DESCRIPTION })
  started_at: string;

  @ApiProperty({
    example: TIME,
    description: 'Visits: the end of the recent window; app check-ins: the confirmation deadline',
  })
  expires_at: string;

  @ApiPropertyOptional({ example: TIME, description: 'CHECK_IN_VALIDATED only' })
  validated_at?: string;

  @ApiPropertyOptional({ example: TIME, description: 'CHECK_IN_CANCELLED only' })
  cancelled_at?: string;

  @ApiPropertyOptional({ enum: ['member', 'replaced'], description: 'CHECK_IN_CANCELLED only' })
  cancel_reason?: 'member' | 'replaced';

  @ApiProperty({ type: String, nullable: true, example: 'B0KR5QWH', description: "The gym plan's code" })
  plan_code: string | null;
}

export class CheckInEventDto {
  @ApiProperty({
    example: 'evt_01JD8Z3Q4W5E6R7T8Y9U0I1O2P',
    description:
      'The event id, also sent as `webhook-id`: the same on every retry, so receivers dedupe on it',
  })
  id: string;

  @ApiProperty({
    enum: [CHECK_IN_CREATED, CHECK_IN_VALIDATED, CHECK_IN_CANCELLED],
    example: CHECK_IN_CREATED,
  })
  type: typeof CHECK_IN_CREATED | typeof CHECK_IN_VALIDATED | typeof CHECK_IN_CANCELLED;

  @ApiProperty({ example: TIME, description: TIME_DESCRIPTION })
  created_at: string;

  @ApiPropertyOptional({
    example: 'https://gyms.example.com/api/v1/webhook_confirmations/Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0',
    description:
      'CHECK_IN_CREATED of an app check-in only: POST it (no header, no body) to confirm the visit',
  })
  endpoint?: string;

  @ApiProperty({ type: WebhookEventCheckInDto })
  check_in: WebhookEventCheckInDto;

  @ApiProperty({ type: WebhookEventPlaceDto })
  place: WebhookEventPlaceDto;

  @ApiProperty({ type: WebhookEventUserDto })
  user: WebhookEventUserDto;
}

export class TestEventDto {
  @ApiProperty({ example: 'evt_01JD8Z3Q4W5E6R7T8Y9U0I1O2P', description: 'Also sent as `webhook-id`' })
  id: string;

  @ApiProperty({ enum: [TEST_EVENT], example: TEST_EVENT })
  type: typeof TEST_EVENT;

  @ApiProperty({ example: TIME, description: TIME_DESCRIPTION })
  created_at: string;

  @ApiProperty({ type: WebhookEventPlaceDto })
  place: WebhookEventPlaceDto;
}
