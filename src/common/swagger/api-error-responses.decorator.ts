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

type EnvelopeBuilder = (status: number, label: ErrorLabel, detail: string, title?: string) => object;

/** Example details of a route's own, where a label's usual example would mislead (a sign-in's invalid_credentials). */
export type ExampleDetails = Partial<Record<ErrorLabel, string>>;

/** Example error envelopes, one per label. */
export function errorExamples(
  status: number,
  labels: ErrorLabel[],
  details: ExampleDetails = {},
  build: EnvelopeBuilder = buildErrorEnvelope,
) {
  return Object.fromEntries(
    labels.map((label) => [
      label,
      {
        summary: label,
        value: build(status, label, details[label] ?? LABEL_EXAMPLE_DETAILS[label], titleForStatus(status)),
      },
    ]),
  );
}

function errorResponses(
  byStatus: Partial<Record<number, ErrorLabel[]>>,
  details: ExampleDetails,
  schema: new () => object,
  build: EnvelopeBuilder,
) {
  const decorators = Object.entries(byStatus).map(([statusText, labels = []]) => {
    const status = Number(statusText);
    return ApiResponse({
      status,
      description: `${titleForStatus(status)}. Labels: ${labels.map((l) => `\`${l}\``).join(', ')}`,
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(schema) },
          examples: errorExamples(status, labels, details, build),
        },
      },
    });
  });
  return applyDecorators(ApiExtraModels(schema), ...decorators);
}

/**
 * Documents the error answers of a route: for each status, the envelope schema and an example per label.
 * `ApiErrorResponses({ 422: ['not_exists', 'already_used'] })`.
 */
export function ApiErrorResponses(
  byStatus: Partial<Record<number, ErrorLabel[]>>,
  details: ExampleDetails = {},
) {
  return errorResponses(byStatus, details, ErrorEnvelopeDto, buildErrorEnvelope);
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
  return errorResponses(
    { ...byStatus, 500: ['internal_error'] },
    {},
    ObjectSourceErrorEnvelopeDto,
    buildObjectSourceErrorEnvelope,
  );
}
