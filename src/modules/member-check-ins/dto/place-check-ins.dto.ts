import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { formatInZone } from '../../../common/time/business-time';
import { CHECK_IN_STATUSES, CheckInStatus, statusAt } from '../member-check-in-status';
import type { ListedCheckInRow } from '../member-check-ins.repository';

export const CHECK_INS_PAGE_SIZE = 50;
export const CHECK_INS_MAX_PAGE_SIZE = 200;

export class PlaceCheckInsQueryDto {
  @ApiPropertyOptional({ enum: CHECK_IN_STATUSES, example: 'pending' })
  @IsOptional()
  @IsIn(CHECK_IN_STATUSES, { message: 'validation.checkInStatus' })
  status?: CheckInStatus;

  @ApiPropertyOptional({ example: '1', description: '1-based' })
  @IsOptional()
  @Matches(/^[1-9]\d{0,5}$/, { message: 'validation.positiveInteger' })
  @IsString()
  page?: string;

  @ApiPropertyOptional({ example: '50', description: `1 to ${CHECK_INS_MAX_PAGE_SIZE}; 50 by default` })
  @IsOptional()
  @Matches(/^([1-9]|[1-9]\d|1\d\d|200)$/, { message: 'validation.positiveInteger' })
  @IsString()
  page_size?: string;
}

export class PlaceCheckInDto {
  @ApiProperty({ example: '0b6f3e0c-6c1b-4b8e-9d55-2f4c7a1e9b20' })
  id: string;

  @ApiProperty({ enum: CHECK_IN_STATUSES, example: 'pending' })
  status: CheckInStatus;

  @ApiPropertyOptional({ example: '048213', description: 'Only while the check-in is pending' })
  token?: string;

  @ApiProperty({ example: 'DEMO0002' })
  beneficiary_code: string;

  @ApiProperty({ example: 'Bruno Oliveira', description: "The member's name, for the desk" })
  beneficiary_name: string;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  started_at: string;

  @ApiProperty({ example: '2026-11-22T08:32:11.412-03:00' })
  expires_at: string;

  @ApiProperty({ example: null, nullable: true, type: String })
  validated_at: string | null;

  static of(row: ListedCheckInRow, now: Date, timeZone: string): PlaceCheckInDto {
    const status = statusAt(row, now);
    return {
      id: row.id,
      status,
      ...(status === 'pending' && { token: row.token }),
      beneficiary_code: row.beneficiaryCode,
      beneficiary_name: row.beneficiaryName,
      started_at: formatInZone(row.startedAt, timeZone),
      expires_at: formatInZone(row.expiresAt, timeZone),
      validated_at: row.validatedAt === null ? null : formatInZone(row.validatedAt, timeZone),
    };
  }
}

export class PlaceCheckInPageDto {
  @ApiProperty({ type: [PlaceCheckInDto] })
  data: PlaceCheckInDto[];

  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 50 })
  page_size: number;

  @ApiProperty({ example: 1, description: 'Check-ins matching the filter, over all pages' })
  total: number;
}

/** A member check-in in a beneficiary's history: where, for which plan, and what became of it. */
export class BeneficiaryCheckInDto {
  @ApiProperty({ example: '0b6f3e0c-6c1b-4b8e-9d55-2f4c7a1e9b20' })
  id: string;

  @ApiProperty({ enum: CHECK_IN_STATUSES, example: 'validated' })
  status: CheckInStatus;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  place_id: string;

  @ApiProperty({ example: 'Acme Paulista' })
  place_name: string;

  @ApiProperty({ example: '59TADO9F' })
  place_code: string;

  @ApiProperty({ example: 'B0KR5QWH', nullable: true, type: String })
  plan_code: string | null;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  started_at: string;

  @ApiProperty({ example: '2026-11-22T08:32:11.412-03:00' })
  expires_at: string;

  @ApiProperty({ example: '2026-11-22T07:04:40.017-03:00', nullable: true, type: String })
  validated_at: string | null;

  @ApiProperty({ example: null, nullable: true, type: String })
  cancelled_at: string | null;

  static of(row: ListedCheckInRow, now: Date, timeZone: string): BeneficiaryCheckInDto {
    const time = (date: Date | null) => (date === null ? null : formatInZone(date, timeZone));
    return {
      id: row.id,
      status: statusAt(row, now),
      place_id: row.placeId,
      place_name: row.placeName,
      place_code: row.placeCode,
      plan_code: row.planCode,
      started_at: formatInZone(row.startedAt, timeZone),
      expires_at: formatInZone(row.expiresAt, timeZone),
      validated_at: time(row.validatedAt),
      cancelled_at: time(row.cancelledAt),
    };
  }
}

export class BeneficiaryCheckInPageDto {
  @ApiProperty({ type: [BeneficiaryCheckInDto] })
  data: BeneficiaryCheckInDto[];

  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 50 })
  page_size: number;

  @ApiProperty({ example: 1 })
  total: number;
}
