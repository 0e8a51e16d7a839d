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

  it.each([
    '/admin/beneficiaries/987%20654%20321%2000',
    '/admin/beneficiaries/987%2E654%2e321%2D00',
    '/admin/beneficiaries/987+654+321+00',
    '/admin/beneficiaries/987.654.321-00',
    '/admin/beneficiaries?cpf=987%20654%20321-00&x=1',
    '/admin/beneficiaries/987%2B654%2B321%2B00',
  ])('masks a CPF written with encoded separators: %s', (url) => {
    const masked = maskUrl(url);
    expect(masked).toContain('987.***.***-00');
    expect(masked.replace(/%2[0BbDdEe]|\D/g, '')).not.toContain('654321');
  });

  it('leaves longer runs of digits and phone numbers alone', () => {
    expect(maskUrl('/x?phone=%2B5511999990000')).toBe('/x?phone=%2B5511999990000');
  });
});
