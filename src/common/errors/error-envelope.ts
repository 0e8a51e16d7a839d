import { ApiProperty } from '@nestjs/swagger';
import { ERROR_LABELS, ErrorLabel, titleForStatus } from './error-label';

export class ErrorSourceDto {
  @ApiProperty({ enum: ERROR_LABELS, enumName: 'ErrorLabel', example: 'already_used' })
  label: ErrorLabel;

  @ApiProperty({ example: 'A check-in at this gym was recorded at 07:02; try again after 08:32.' })
  message: string;
}

export class ErrorMetaDto {
  @ApiProperty({
    example: '3f6c1d2e-8a4b-4c1e-9f2a-7b5d0e6a1c93',
    description:
      "The request's `X-Request-Id` (the client's when it sent a sane one, else generated); quote it to support",
  })
  request_id: string;
}

export class ErrorObjectDto {
  @ApiProperty({ example: '422', description: 'HTTP status as a string' })
  status: string;

  @ApiProperty({ example: 'Validation Error' })
  title: string;

  @ApiProperty({
    enum: ERROR_LABELS,
    enumName: 'ErrorLabel',
    example: 'already_used',
    description: 'Machine-readable code; stable API',
  })
  label: ErrorLabel;

  @ApiProperty({ example: 'A check-in at this gym was recorded at 07:02; try again after 08:32.' })
  detail: string;

  @ApiProperty({ type: [ErrorSourceDto] })
  source: ErrorSourceDto[];

  @ApiProperty({ type: ErrorMetaDto, required: false, description: 'On every error the service answers' })
  meta?: ErrorMetaDto;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ type: [ErrorObjectDto] })
  errors: ErrorObjectDto[];
}

export class ObjectSourceErrorDto extends ErrorObjectDto {
  @ApiProperty({ type: ErrorSourceDto, description: 'One object here, not an array' })
  declare source: ErrorSourceDto & ErrorSourceDto[];
}

/** The error envelope of the confirmation endpoint: `source` is an object, and a 404 has `message`. */
export class ObjectSourceErrorEnvelopeDto {
  @ApiProperty({ example: 'not found', required: false, description: 'On 404 only: always `not found`' })
  message?: 'not found';

  @ApiProperty({ type: [ObjectSourceErrorDto] })
  errors: ObjectSourceErrorDto[];
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

/**
 * The envelope with each error's `source` as one object, and on a 404 `"message": "not found"` at the top (a
 * fixed marker that clients compare, never translated): the confirmation endpoint answers so, as the platform
 * it mirrors does.
 */
export function buildObjectSourceErrorEnvelope(
  status: number,
  label: ErrorLabel,
  detail: string,
  title?: string,
): { message?: 'not found'; errors: (Omit<ErrorObjectDto, 'source'> & { source: ErrorSourceDto })[] } {
  const errors = buildErrorEnvelope(status, label, detail, title).errors.map((error) => ({
    ...error,
    source: { label, message: detail },
  }));
  return status === 404 ? { message: 'not found', errors } : { errors };
}

/** The envelope with the request id in each error's `meta`, so a refusal a client reports leads to its log lines. */
export function withRequestId<T extends { errors: object[] }>(envelope: T, requestId: string): T {
  return {
    ...envelope,
    errors: envelope.errors.map((error) => ({ ...error, meta: { request_id: requestId } })),
  };
}
