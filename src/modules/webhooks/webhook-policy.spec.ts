import { DomainError } from '../../common/errors/domain-error';
import {
  generateEventId,
  generateWebhookSecret,
  parseRetryAfter,
  parseWebhookType,
  parseWebhookUrl,
  retryDelayMs,
} from './webhook-policy';

function detail(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.message;
  }
  return 'accepted';
}

describe('webhook policy', () => {
  it('checks URLs', () => {
    expect(parseWebhookUrl('https://erp.example.com/hooks', false)).toBe('https://erp.example.com/hooks');
    expect(detail(() => parseWebhookUrl('http://erp.example.com/hooks', false))).toBe(
      'webhook_url must use https',
    );
    expect(parseWebhookUrl('http://127.0.0.1:4000/hooks', true)).toBe('http://127.0.0.1:4000/hooks');
    expect(detail(() => parseWebhookUrl('https://user:pw@erp.example.com/', false))).toContain('user name');
    expect(detail(() => parseWebhookUrl(`https://e.com/${'a'.repeat(2048)}`, false))).toContain('2048');
    expect(parseWebhookUrl(`https://e.com/${'a'.repeat(2048 - 14)}`, false)).toHaveLength(2048);
    // 1000 characters as typed, 6000 once percent-encoded.
    expect(detail(() => parseWebhookUrl(`https://e.com/${'é'.repeat(1000)}`, false))).toContain('2048');
    // Under 2048 as typed, longer once the host is punycode and the path percent-encoded.
    const unicode = `https://${'ü'.repeat(50)}.example/${'ü'.repeat(330)}`;
    expect(unicode.length).toBeLessThan(2048);
    expect(detail(() => parseWebhookUrl(unicode, false))).toContain('2048');
    // Normalizing can also shorten: the stored form is what is measured.
    const shorter = `HTTPS://E.COM:443/${'a'.repeat(2034)}`;
    expect(shorter.length).toBeGreaterThan(2048);
    expect(parseWebhookUrl(shorter, false)).toBe(`https://e.com/${'a'.repeat(2034)}`);
    expect(detail(() => parseWebhookUrl('not a url', false))).toContain('absolute URL');
    expect(detail(() => parseWebhookUrl('ftp://e.com/x', true))).toContain('http or https');
    expect(detail(() => parseWebhookUrl(42, false))).toContain('required');
  });

  it('checks types', () => {
    expect(parseWebhookType('CHECKIN')).toBe('CHECKIN');
    expect(parseWebhookType('checkin')).toBe('CHECKIN');
    expect(detail(() => parseWebhookType('PAYMENT'))).toBe('webhook_type must be one of: CHECKIN');
  });

  it('follows the schedule with ±20% jitter, and Retry-After when given', () => {
    const schedule = [5, 300, 1800];
    expect(retryDelayMs(schedule, 1, undefined, () => 0)).toBe(4000);
    expect(retryDelayMs(schedule, 1, undefined, () => 1)).toBe(6000);
    expect(retryDelayMs(schedule, 2, undefined, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(schedule, 9, undefined, () => 0.5)).toBe(1_800_000);
    expect(retryDelayMs(schedule, 1, 120_000)).toBe(120_000);
    expect(retryDelayMs(schedule, 1, 0)).toBe(0);
  });

  it('caps Retry-After at the longest wait of the schedule', () => {
    expect(retryDelayMs([5, 300, 1800], 1, 90 * 24 * 3600 * 1000)).toBe(1_800_000);
    expect(retryDelayMs([0.2, 3, 0.5], 1, 3_000_001)).toBe(3000);
    expect(retryDelayMs([0.2], 1, undefined, () => 0.5)).toBe(200);
  });

  it('reads Retry-After as seconds or a date', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('makes secrets and event ids in their formats', () => {
    expect(generateWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateEventId()).toMatch(/^evt_[0-9a-f]{32}$/);
  });
});
