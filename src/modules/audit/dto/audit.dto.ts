import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../../common/http/paging';
import { ACTOR_TYPES } from '../entities/audit-entry.entity';

export class AuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: 'ana@acme.example',
    description:
      'An account id or e-mail, a place id or name, or an actor type (account, admin-token, place)',
  })
  @IsOptional()
  @MaxLength(255)
  @IsString()
  actor?: string;

  @ApiPropertyOptional({
    example: 'place.key.rotate',
    description: 'An action, or its start: `place` matches place.create, place.update, place.key.rotate',
  })
  @IsOptional()
  @MaxLength(64)
  @IsString()
  action?: string;

  @ApiPropertyOptional({ example: 'place' })
  @IsOptional()
  @MaxLength(32)
  @IsString()
  target_type?: string;

  @ApiPropertyOptional({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' })
  @IsOptional()
  @MaxLength(64)
  @IsString()
  target_id?: string;

  @ApiPropertyOptional({
    example: '2026-11-01',
    description:
      'Inclusive. `YYYY-MM-DD` or an ISO 8601 date and time; without an offset, in BUSINESS_TIMEZONE',
  })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({
    example: '2026-11-30',
    description: 'Exclusive for a date and time; `YYYY-MM-DD` includes that whole day',
  })
  @IsOptional()
  @IsString()
  to?: string;
}

/** The filters of the audit list, for its CSV export. */
export class AuditExportQueryDto extends OmitType(AuditQueryDto, ['page', 'page_size'] as const) {}

export class AuditEntryDto {
  @ApiProperty({ example: '1042' })
  id: string;

  @ApiProperty({ example: '2026-11-22T07:02:11.412-03:00' })
  at: string;

  @ApiProperty({ example: 'account', enum: ACTOR_TYPES })
  actor_type: (typeof ACTOR_TYPES)[number];

  @ApiProperty({
    example: '12',
    nullable: true,
    type: String,
    description: 'The account id or the place id; null for the admin token',
  })
  actor_id: string | null;

  @ApiProperty({
    example: 'ana@acme.example',
    description: "The account's e-mail, the place's name, or admin-token, as they were then",
  })
  actor_label: string;

  @ApiProperty({
    example: 'place.key.rotate',
    description:
      'partner.create, partner.update, partner.key.rotate, place.create, place.update, place.key.rotate, key.reveal, plan.create, ' +
      'plan.delete, benefit_plan.create, benefit_plan.update, beneficiary.create, beneficiary.update, ' +
      'beneficiary.bulk_import, webhook.create, webhook.update, webhook.delete, webhook.test, delivery.redeliver, ' +
      'account.invite, account.update, account.disable, account.enable, account.password_link, ' +
      'account.password.set, session.login, session.logout',
  })
  action: string;

  @ApiProperty({ example: 'place', nullable: true, type: String })
  target_type: string | null;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61', nullable: true, type: String })
  target_id: string | null;

  @ApiProperty({ example: '203.0.113.7', nullable: true, type: String })
  address: string | null;

  @ApiProperty({ example: '5f0c3a6e-2b1d-4c8f-9a7b-6c5d4e3f2a1b', nullable: true, type: String })
  request_id: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { name: 'Acme Paulista 24h' },
    description: 'What changed; never a key, a secret or a password',
  })
  details: Record<string, unknown> | null;

  @ApiProperty({
    example: 'Acme Paulista',
    nullable: true,
    type: String,
    description:
      "The target's name as it is now: a place's, partner's, account's, plan's or benefit plan's; for a webhook " +
      "or a delivery, its place's. null for a beneficiary (named by its code) or a target that is gone",
  })
  target_label: string | null;

  @ApiProperty({
    example: 'Acme Paulista',
    nullable: true,
    type: String,
    description: 'The name of the place the entry concerns (its target, or the place_id of its details)',
  })
  place_name: string | null;

  @ApiProperty({
    example: 'Ana Operadora',
    nullable: true,
    type: String,
    description: "The acting account's or place's name as it is now",
  })
  actor_name: string | null;
}

export class AuditPageDto extends PageMetaDto {
  @ApiProperty({ type: [AuditEntryDto], description: 'Newest first' })
  data: AuditEntryDto[];
}
