import { ApiProperty } from '@nestjs/swagger';
import { ErrorLabel, titleForStatus } from './error-label';

export class ErrorSourceDto {
  @ApiProperty({ example: 'already_used' })
  label: string;

  @ApiProperty({ example: 'A check-in at this gym was recorded at 07:02; try again after 08:32.' })
  message: string;
}

export class ErrorObjectDto {
  @ApiProperty({ example: '422', description: 'HTTP status as a string' })
  status: string;

  @ApiProperty({ example: 'Validation Error' })
  title: string;

  @ApiProperty({ example: 'already_used', description: 'Machine-readable code; stable API' })
  label: string;

  @ApiProperty({ example: 'A check-in at this gym was recorded at 07:02; try again after 08:32.' })
  detail: string;

  @ApiProperty({ type: [ErrorSourceDto] })
  source: ErrorSourceDto[];
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: [ErrorObjectDto] })
  errors: ErrorObjectDto[];
}

export function buildErrorEnvelope(
  status: number,
  label: ErrorLabel,
  detail: string,
  title?: string,
): ErrorEnvelopeDto {
  return {
    errors: [
      {
        status: String(status),
        title: title ?? titleForStatus(status),
        label,
        detail,
        source: [{ label, message: detail }],
      },
    ],
  };
}
