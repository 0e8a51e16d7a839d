import { maskUrl } from './request-logging';

describe('maskUrl', () => {
  it('hides the capability token of a confirmation path and the CPFs of any path', () => {
    expect(maskUrl('/api/v1/webhook_confirmations/Ab3_-xYz0123456789abcdefghijklmnopqrstuvwxy')).toBe(
      '/api/v1/webhook_confirmations/***',
    );
    expect(maskUrl('/api/v1/webhook_confirmations/abc?x=1')).toBe('/api/v1/webhook_confirmations/***?x=1');
    expect(maskUrl('/admin/beneficiaries/11144477735')).not.toContain('11144477735');
    expect(maskUrl('/v1/track_usages')).toBe('/v1/track_usages');
  });
});
