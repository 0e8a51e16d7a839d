import { deliveryOutcome } from './deliveryOutcome';

const base = {
  status: 'pending' as const,
  last_status_code: null,
  last_error: null,
  last_attempt_at: null,
};

describe('deliveryOutcome', () => {
  it('names what became of a delivery and its last answer', () => {
    expect(
      deliveryOutcome({ ...base, status: 'delivered', last_status_code: 200, last_attempt_at: 'x' }),
    ).toEqual({
      kind: 'delivered',
      answer: 'HTTP 200',
    });
    expect(
      deliveryOutcome({ ...base, status: 'failed', last_status_code: 503, last_attempt_at: 'x' }),
    ).toEqual({
      kind: 'failed',
      answer: 'HTTP 503',
    });
    expect(deliveryOutcome({ ...base, last_status_code: 503, last_attempt_at: 'x' })).toEqual({
      kind: 'retrying',
      answer: 'HTTP 503',
    });
    expect(
      deliveryOutcome({
        ...base,
        status: 'queued',
        last_error: 'connect ECONNREFUSED',
        last_attempt_at: 'x',
      }),
    ).toEqual({
      kind: 'retrying',
      answer: 'connect ECONNREFUSED',
    });
    expect(deliveryOutcome(base)).toEqual({ kind: 'waiting', answer: null });
  });

  it('waits, not retries, for a redelivery of a delivered event, and pauses behind an open breaker', () => {
    expect(deliveryOutcome({ ...base, last_status_code: 200, last_attempt_at: 'x' }).kind).toBe('waiting');
    const open = {
      state: 'open' as const,
      consecutive_failures: 5,
      open_until: 'x',
      last_error: 'HTTP 503',
      last_failure_at: 'x',
    };
    expect(
      deliveryOutcome({ ...base, last_status_code: 503, last_attempt_at: 'x', endpoint_state: open }).kind,
    ).toBe('paused');
  });
});
