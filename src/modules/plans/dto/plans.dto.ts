import { ApiProperty } from '@nestjs/swagger';

/** The longest `?id=` GET /partner/plans looks up. */
export const PLAN_CODE_QUERY_MAX_LENGTH = 64;

export class PlanDto {
  @ApiProperty({ type: 'integer', example: 12, description: "The plan's numeric id" })
  id: number;

  @ApiProperty({ example: 'Musculação' })
  name: string;

  @ApiProperty({ example: 'DPINH002' })
  code: string;

  @ApiProperty({ example: '2026-10-01T12:00:00.000Z' })
  createdAt: Date;

  @ApiProperty({ example: '2026-10-01T12:00:00.000Z' })
  updatedAt: Date;

  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'Always null here: the route lists active plans only',
  })
  deletedAt: Date | null;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e62', description: 'The place (gym) uuid' })
  placeId: string;

  @ApiProperty({ example: 'ERP-PLAN-77', nullable: true, type: String })
  externalReference: string | null;
}

export class PlansResponseDto {
  @ApiProperty({ example: 'Demo Fitness Pinheiros', description: 'Name of the gym' })
  name: string;

  @ApiProperty({ example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e62', description: 'The place uuid' })
  identifier: string;

  @ApiProperty({ example: 'plk_3q2x0B6c9nYbO7mE1s4tVw8kZr5aLp0d' })
  placeApiKey: string;

  @ApiProperty({ type: [PlanDto], description: 'Active plans of the gym' })
  Plans: PlanDto[];
}
