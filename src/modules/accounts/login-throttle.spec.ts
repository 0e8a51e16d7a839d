import { retryAfterSeconds } from './login-throttle';

const MINUTE = 60_000;
const now = new Date('2026-11-23T12:00:00Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * MINUTE);

describe('retryAfterSeconds', () => {
  it('lets a subject under its limit try now', () => {
    expect(retryAfterSeconds([ago(1), ago(2)], 3, 15 * MINUTE, now)).toBeNull();
  });

  it('waits until the limit-th newest failure leaves the window', () => {
    // Newest first: the 3rd newest happened 10 minutes ago and leaves the 15-minute window in 5.
    expect(retryAfterSeconds([ago(1), ago(2), ago(10), ago(14)], 3, 15 * MINUTE, now)).toBe(300);
  });

  it('rounds up to whole seconds and never answers zero', () => {
    expect(retryAfterSeconds([new Date(now.getTime() - 15 * MINUTE + 400)], 1, 15 * MINUTE, now)).toBe(1);
    expect(retryAfterSeconds([ago(15)], 1, 15 * MINUTE, now)).toBeNull();
  });
});
