import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { buildErrorEnvelope } from '../errors/error-envelope';
import { ErrorEnvelopeDto } from '../errors/error-envelope';
import { describeLabel, ErrorLabel, titleForStatus } from '../errors/error-label';
import { LABEL_EXAMPLE_DETAILS } from './label-examples';

/** Example details of a route's own, where a label's usual example would mislead (a sign-in's invalid_credentials). */
export type ExampleDetails = Partial<Record<ErrorLabel, string>>;

/** Example error envelopes, one per label. */
export function errorExamples(status: number, labels: ErrorLabel[], details: ExampleDetails = {}) {
  return Object.fromEntries(
    labels.map((label) => [
      label,
      {
        summary: label,
        value: buildErrorEnvelope(
          status,
          label,
          details[label] ?? LABEL_EXAMPLE_DETAILS[label],
          titleForStatus(status),
        ),
      },
    ]),
  );
}

/**
 * Documents the error answers of a route: for each status, the envelope schema and an example per label.
 * `ApiErrorResponses({ 422: ['not_exists', 'already_used'] })`.
 */
export function ApiErrorResponses(
  byStatus: Partial<Record<number, ErrorLabel[]>>,
  details: ExampleDetails = {},
) {
  const decorators = Object.entries(byStatus).map(([statusText, labels = []]) => {
    const status = Number(statusText);
    return ApiResponse({
      status,
      description: `${titleForStatus(status)}. Labels: ${labels.map((l) => `\`${l}\``).join(', ')}`,
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
          examples: errorExamples(status, labels, details),
        },
      },
    });
  });
  return applyDecorators(ApiExtraModels(ErrorEnvelopeDto), ...decorators);
}

/** Labels with their usual status, for routes that answer them with the default mapping. */
export function ApiLabelResponses(...labels: ErrorLabel[]) {
  const byStatus: Partial<Record<number, ErrorLabel[]>> = {};
  for (const label of labels) (byStatus[describeLabel(label).status] ??= []).push(label);
  return ApiErrorResponses(byStatus);
}
