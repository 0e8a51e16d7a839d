import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { formatInZone } from '../../../common/time/business-time';
import { BENEFICIARY_IDENTIFIER_TYPES, MAX_FIELD_LENGTH } from '../../eligibility/track-usage-request';
import { CHECK_IN_STATUSES, CheckInStatus, statusAt } from '../member-check-in-status';
import type { CheckInAt } from '../member-check-ins.service';

const EXAMPLE_ID = '0b6f3e0c-6c1b-4b8e-9d55-2f4c7a1e9b20';

/** The body of a member check-in, for the document: read by the check-in routes' parser, with its limits. */
export class CreateMemberCheckInDto {
  @ApiProperty({ enum: BENEFICIARY_IDENTIFIER_TYPES, example: 'cpf', description: 'Kind of identifier' })
  type: string;

  @ApiProperty({
    example: '12345600896',
    description:
      'The CPF (punctuation `.`, `-` and spaces are stripped), the beneficiary code, or the member number ' +
      '(`member_number`: 13 digits, as the Wellhub-compatible access control calls it `gympass_id`)',
    maxLength: MAX_FIELD_LENGTH,
  })
  identifier: string;

  @ApiProperty({
    example: 'DEMOPINH',
    description: 'Code of the gym the member checks in at',
    maxLength: MAX_FIELD_LENGTH,
  })
  service_provider_code: string;

  @ApiPropertyOptional({
    example: 'DPINH002',
    description: 'The gym plan; required only when the gym has more than one active plan',
    maxLength: MAX_FIELD_LENGTH,
  })
  service_provider_plan_code?: string;
}

export class CheckInPlaceDto {
  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e62', description: 'The place uuid' })
  place: string;

  @ApiProperty({ example: 'Demo Fitness Pinheiros' })
  name: string;

  @ApiProperty({ example: 'DEMOPINH' })
  code: string;
}

export class MemberCheckInDto {
  @ApiProperty({ example: EXAMPLE_ID })
  id: string;

  @ApiProperty({
    enum: CHECK_IN_STATUSES,
    example: 'pending',
    description: '`expired` once `expires_at` passes unconfirmed',
  })
  status: CheckInStatus;

  @ApiProperty({
    example: '048213',
    description: 'The 6 digits the member shows at the desk; unique among the pending check-ins of the gym',
  })
  token: string;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00', description: 'With the BUSINESS_TIMEZONE offset' })
  started_at: string;

  @ApiProperty({
    example: '2026-11-22T08:32:11.412-03:00',
    description: 'The confirmation deadline: started_at + CHECK_IN_CONFIRMATION_WINDOW_SECONDS',
  })
  expires_at: string;

  @ApiProperty({ example: null, nullable: true, type: String, description: 'When the gym confirmed it' })
  validated_at: string | null;

  @ApiProperty({ example: null, nullable: true, type: String })
  cancelled_at: string | null;

  @ApiProperty({ type: CheckInPlaceDto })
  place: CheckInPlaceDto;

  @ApiProperty({
    example: 'DPINH002',
    nullable: true,
    type: String,
    description: 'null at a gym without plans',
  })
  plan_code: string | null;

  @ApiProperty({
    example: '1836547291045',
    description: "The member's number (13 digits): `unique_token` of the Wellhub-format `checkin` event",
  })
  member_number: string;

  static of({ row, now }: CheckInAt, timeZone: string): MemberCheckInDto {
    const time = (date: Date | null) => (date === null ? null : formatInZone(date, timeZone));
    return {
      id: row.id,
      status: statusAt(row, now),
      token: row.token,
      started_at: formatInZone(row.startedAt, timeZone),
      expires_at: formatInZone(row.expiresAt, timeZone),
      validated_at: time(row.validatedAt),
      cancelled_at: time(row.cancelledAt),
      place: { place: row.placeId, name: row.placeName, code: row.placeCode },
      plan_code: row.planCode,
      member_number: row.memberNumber,
    };
  }
}

/**
 * Each on a Silver beneficiary of the demo that no earlier example of the document checked in (a recent visit at
 * another gym would refuse it), so that both answer 201 on a fresh demo in the document's order.
 */
export const CREATE_EXAMPLES = {
  byCpf: {
    summary: 'By CPF → 201',
    description: 'Henrique Souza (DEMO0017), a Silver beneficiary of the demo.',
    value: { type: 'cpf', identifier: '12345611316', service_provider_code: 'DEMOPINH' },
  },
  byCodeWithPlan: {
    summary: 'By beneficiary code, at a gym with more than one plan → 201',
    description: 'Bruno Lima (DEMO0020), a Silver beneficiary of the demo.',
    value: {
      type: 'code',
      identifier: 'DEMO0020',
      service_provider_code: 'DEMOPAUL',
      service_provider_plan_code: 'DPBASIC1',
    },
  },
};

export const CANCELLED_EXAMPLE: Partial<MemberCheckInDto> = {
  id: EXAMPLE_ID,
  status: 'cancelled',
  token: '048213',
  started_at: '2026-11-22T07:02:11.412-03:00',
  expires_at: '2026-11-22T08:32:11.412-03:00',
  validated_at: null,
  cancelled_at: '2026-11-22T07:10:40.017-03:00',
  place: { place: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e62', name: 'Demo Fitness Pinheiros', code: 'DEMOPINH' },
  plan_code: 'DPINH002',
};
