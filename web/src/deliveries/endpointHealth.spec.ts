import { endpointHealth } from './endpointHealth';

const closed = {
  state: 'closed' as const,
  consecutive_failures: 0,
  open_until: null,
  last_error: null,
  last_failure_at: null,
};

describe('endpointHealth', () => {
  it('reads the breaker the service reports', () => {
    expect(endpointHealth(closed).kind).toBe('healthy');
    expect(endpointHealth(undefined).kind).toBe('healthy');
    expect(
      endpointHealth({
        ...closed,
        consecutive_failures: 2,
        last_error: 'HTTP 503',
        last_failure_at: '2026-11-22T07:05:00.000-03:00',
        failing_since: '2026-11-22T07:01:00.000-03:00',
      }),
    ).toEqual({
      kind: 'failing',
      since: '2026-11-22T07:01:00.000-03:00',
      lastFailureAt: '2026-11-22T07:05:00.000-03:00',
      until: null,
      failures: 2,
      lastError: 'HTTP 503',
    });
    const open = endpointHealth({
      ...closed,
      state: 'open',
      consecutive_failures: 5,
      open_until: '2026-11-22T07:10:00.000-03:00',
    });
    expect(open).toMatchObject({ kind: 'open', until: '2026-11-22T07:10:00.000-03:00' });
    expect(endpointHealth({ ...closed, state: 'half_open', consecutive_failures: 5 }).kind).toBe('probing');
  });

  it('says disabled for a webhook that is off, whatever its breaker', () => {
    expect(endpointHealth({ ...closed, state: 'open', consecutive_failures: 9 }, false).kind).toBe(
      'disabled',
    );
  });
});
