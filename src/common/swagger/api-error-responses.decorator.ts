import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import {
  buildErrorEnvelope,
  buildObjectSourceErrorEnvelope,
  ErrorEnvelopeDto,
  ObjectSourceErrorEnvelopeDto,
} from '../errors/error-envelope';
import { describeLabel, ErrorLabel, titleForStatus } from '../errors/error-label';
import { LABEL_EXAMPLE_DETAILS } from './label-examples';

/** Example error envelopes, one per label. */
export function errorExamples(status: number, labels: ErrorLabel[]) {
  return Object.fromEntries(
    labels.map((label) => [
      label,
      {
        summary: label,
        value: buildErrorEnvelope(status, label, LABEL_EXAMPLE_DETAILS[label], titleForStatus(status)),
      },
    ]),
  );
}

/**
 * Documents the error answers of a route: for each status, the envelope schema and an example per label.
 * `ApiErrorResponses({ 422: ['not_exists', 'already_used'] })`.
 */
export function ApiErrorResponses(byStatus: Partial<Record<number, ErrorLabel[]>>) {
  const decorators = Object.entries(byStatus).map(([statusText, labels = []]) => {
    const status = Number(statusText);
    return ApiResponse({
      status,
      description: `${titleForStatus(status)}. Labels: ${labels.map((l) => `\`${l}\``).join(', ')}`,
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
          examples: errorExamples(status, labels),
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

/**
 * Like ApiErrorResponses, for a route whose errors carry `source` as one object (and `message` on a 404); its
 * 500 too, which the document's common answers would otherwise show in the usual shape.
 */
export function ApiObjectSourceErrorResponses(byStatus: Partial<Record<number, ErrorLabel[]>>) {
  const decorators = Object.entries({ ...byStatus, 500: ['internal_error'] as ErrorLabel[] }).map(
    ([statusText, labels = []]) => {
      const status = Number(statusText);
      return ApiResponse({
        status,
        description: `${titleForStatus(status)}. Labels: ${labels.map((l) => `\`${l}\``).join(', ')}`,
        content: {
          'application/json': {
            schema: { $ref: getSchemaPath(ObjectSourceErrorEnvelopeDto) },
            examples: Object.fromEntries(
              labels.map((label) => [
                label,
                {
                  summary: label,
                  value: buildObjectSourceErrorEnvelope(status, label, LABEL_EXAMPLE_DETAILS[label]),
                },
              ]),
            ),
          },
        },
      });
    },
  );
  return applyDecorators(ApiExtraModels(ObjectSourceErrorEnvelopeDto), ...decorators);
}
