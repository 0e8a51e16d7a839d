import {
  attemptName,
  awaitedOutcomes,
  breakerChange,
  breakerOpening,
  endpointShare,
  failedAttemptSummary,
  moveAfterAttempt,
  parseAttemptName,
  runJobId,
  runStartedAt,
  maySendBatch,
  runHoldUntil,
} from './delivery-policy';

const at = new Date('2026-11-26T08:00:00.000Z');
const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);

describe('delivery policy', () => {
  it('moves a delivery after an attempt: delivered, retried on the schedule, failed at its end or on 410', () => {
    const schedule = [5, 300];
    const half = () => 0.5;
    expect(moveAfterAttempt({ ok: true, statusCode: 204 }, 1, schedule, at)).toEqual({
      status: 'delivered',
      nextAttemptAt: null,
    });
    expect(moveAfterAttempt({ ok: false, statusCode: 503 }, 1, schedule, at, half)).toEqual({
      status: 'queued',
      nextAttemptAt: later(5),
    });
    expect(moveAfterAttempt({ ok: false, statusCode: null }, 2, schedule, at, half)).toEqual({
      status: 'queued',
      nextAttemptAt: later(300),
    });
    expect(moveAfterAttempt({ ok: false, statusCode: 503, retryAfterMs: 60_000 }, 1, schedule, at)).toEqual({
      status: 'queued',
      nextAttemptAt: later(60),
    });
    expect(moveAfterAttempt({ ok: false, statusCode: 503 }, 3, schedule, at).status).toBe('failed');
    expect(moveAfterAttempt({ ok: false, statusCode: 410 }, 1, schedule, at)).toEqual({
      status: 'failed',
      nextAttemptAt: null,
    });
  });

  it("reads a batch's answers, in the order they came, into its endpoint's breaker change", () => {
    const ok = { ok: true, error: null };
    const failed = (error: string) => ({ ok: false, error });
    expect(breakerChange([ok, ok], false)).toEqual({ kind: 'none' });
    expect(breakerChange([ok, ok], true)).toEqual({ kind: 'close' });
    expect(breakerChange([failed('HTTP 500'), ok], true)).toEqual({ kind: 'close' });
    expect(breakerChange([failed('HTTP 500'), failed('HTTP 503')], false)).toEqual({
      kind: 'fail',
      failures: 2,
      restart: false,
      error: 'HTTP 503',
    });
    expect(breakerChange([failed('a'), ok, failed('timed out')], false)).toEqual({
      kind: 'fail',
      failures: 1,
      restart: true,
      error: 'timed out',
    });
  });

  it('opens a breaker at the threshold, for longer each time, at most an hour, and not when open', () => {
    expect(breakerOpening({ failures: 4, opens: 0, openUntil: null }, 5, 30, at)).toBeUndefined();
    expect(breakerOpening({ failures: 5, opens: 0, openUntil: null }, 5, 30, at)).toEqual({
      openUntil: later(30),
    });
    expect(breakerOpening({ failures: 9, opens: 2, openUntil: later(-1) }, 5, 30, at)).toEqual({
      openUntil: later(120),
    });
    expect(breakerOpening({ failures: 9, opens: 20, openUntil: null }, 5, 30, at)).toEqual({
      openUntil: later(3600),
    });
    expect(breakerOpening({ failures: 9, opens: 1, openUntil: later(10) }, 5, 30, at)).toBeUndefined();
  });

  it('gives an endpoint its share: all while closed, none while open, one probe after the wait', () => {
    expect(endpointShare(undefined, 5, 16, at)).toBe(16);
    expect(endpointShare({ failures: 4, openUntil: null }, 5, 16, at)).toBe(16);
    expect(endpointShare({ failures: 5, openUntil: later(1) }, 5, 16, at)).toBe(0);
    expect(endpointShare({ failures: 5, openUntil: later(-1) }, 5, 16, at)).toBe(1);
  });

  it('names batches and attempts so that Bull never takes a new one for one it has', () => {
    const id = 'dlv_0c1f4e0a9b8d4c7e8f6a5b4c3d2e1f00';
    expect(attemptName(id, 0, 1)).toBe(`${id}.r0.a1`);
    expect(parseAttemptName(attemptName(id, 2, 3))).toEqual({ deliveryId: id, redeliveries: 2, attempt: 3 });
    expect(parseAttemptName('dlv_x.r0.a1')).toBeUndefined();
    expect(runJobId('sub-1', at)).toBe(`run.sub-1.${at.getTime()}`);
    expect(runJobId('sub-1', later(0.001))).not.toBe(runJobId('sub-1', at));
    expect(runStartedAt(runJobId('sub-1', at))).toBe(at.getTime());
  });

  it("holds a run's endpoint past its deadline, and sends a batch only while its outcome has time to be written", () => {
    const start = new Date('2026-11-29T10:00:00.000Z');
    const held = runHoldUntil(start, 15_000);
    expect(held).toEqual(new Date('2026-11-29T10:00:25.000Z'));
    expect(maySendBatch(start, 15_000, held)).toBe(true);
    // A batch sent now would end at 10:00:20.001, leaving less than 5 s to write its outcome.
    expect(maySendBatch(new Date('2026-11-29T10:00:05.000Z'), 15_000, held)).toBe(true);
    expect(maySendBatch(new Date('2026-11-29T10:00:05.001Z'), 15_000, held)).toBe(false);
  });

  it('records only the attempt each row waits for, once', () => {
    const rows = new Map([
      ['a', { redeliveries: 0, attempts: 0, waiting: true }],
      ['b', { redeliveries: 1, attempts: 2, waiting: true }],
      ['c', { redeliveries: 0, attempts: 0, waiting: false }],
    ]);
    const report = (deliveryId: string, redeliveries = 0, attempts = 0) => ({
      deliveryId,
      redeliveries,
      attempts,
    });
    expect(
      awaitedOutcomes(rows, [
        report('a'),
        report('a'),
        report('b', 1, 2),
        report('b', 0, 2),
        report('c'),
        report('gone'),
      ]),
    ).toEqual([true, false, true, false, false, false]);
  });

  it('sums a failed attempt up for the queue dashboard: gym, host, answer, next attempt, breaker', () => {
    const failed = {
      place: 'Academia Centro (59TADO9F)',
      target: 'erp.example.com',
      deliveryId: 'dlv_1',
      attempt: 2,
      error: 'HTTP 503',
      responseBody: '{"error":\n  "maintenance"}',
      nextAttemptAt: at,
    };
    expect(failedAttemptSummary(failed)).toBe(
      'Academia Centro (59TADO9F) → erp.example.com: attempt 2 of dlv_1 failed: HTTP 503 ' +
        '({"error": "maintenance"}); next attempt at 2026-11-26T08:00:00.000Z',
    );
    expect(
      failedAttemptSummary(
        { ...failed, responseBody: null, error: 'connect ECONNREFUSED', breakerOpenUntil: later(300) },
        2,
      ),
    ).toBe(
      'Academia Centro (59TADO9F) → erp.example.com: attempt 2 of dlv_1 failed: connect ECONNREFUSED; ' +
        'next attempt at 2026-11-26T08:00:00.000Z; circuit breaker open until 2026-11-26T08:05:00.000Z ' +
        '(and 2 more failed attempts in this run)',
    );
    expect(failedAttemptSummary({ ...failed, nextAttemptAt: null, responseBody: 'x'.repeat(500) })).toMatch(
      /HTTP 503 \(x{200}\); no attempt left: the delivery failed/,
    );
  });
});
