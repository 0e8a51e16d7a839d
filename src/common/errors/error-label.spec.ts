import { DomainError } from './domain-error';
import { buildErrorEnvelope } from './error-envelope';
import { describeLabel, ERROR_LABELS } from './error-label';

describe('error labels', () => {
  it('maps every label to a status and a title', () => {
    for (const label of ERROR_LABELS) {
      const { status, title } = describeLabel(label);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(title).not.toHaveLength(0);
    }
  });

  it('maps the spec labels to 422 Validation Error', () => {
    expect(describeLabel('already_used')).toEqual({ status: 422, title: 'Validation Error' });
    expect(describeLabel('invalid_token')).toEqual({ status: 401, title: 'Unauthorized' });
  });

  it('lets a domain error override the status', () => {
    expect(new DomainError('invalid_plan', 'plans.idEmpty', { status: 400 }).status).toBe(400);
    expect(new DomainError('invalid_plan').status).toBe(422);
  });

  it('builds the envelope with label and detail repeated in source', () => {
    expect(buildErrorEnvelope(422, 'not_exists', 'No beneficiary.')).toEqual({
      errors: [
        {
          status: '422',
          title: 'Validation Error',
          label: 'not_exists',
          detail: 'No beneficiary.',
          source: [{ label: 'not_exists', message: 'No beneficiary.' }],
        },
      ],
    });
  });
});
