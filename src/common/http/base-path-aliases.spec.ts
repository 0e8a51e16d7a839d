import { aliasesOf, canonicalUrl } from './base-path-aliases';

describe('base path aliases', () => {
  it.each([
    ['/service/v1/track_usages', '/v1/track_usages'],
    ['/api/v1/track_usages', '/v1/track_usages'],
    ['/service/v1/track_usages/validate', '/v1/track_usages/validate'],
    ['/api/v1/track_usages/beneficiaries/code?x=1', '/v1/track_usages/beneficiaries/code?x=1'],
    ['/api/v1/track_usages?x=1', '/v1/track_usages?x=1'],
    ['/service/partner_app/v1/validate', '/partner_app/v1/validate'],
    ['/api/partner_app/v1/validate', '/partner_app/v1/validate'],
  ])('%s answers as %s', (url, canonical) => {
    expect(canonicalUrl(url)).toBe(canonical);
  });

  it.each([
    '/v1/track_usages',
    '/api/v1/webhook_confirmations/abc',
    '/api/partner/auth',
    '/service/partner/plans',
    '/api/v1/track_usages_other',
    '/apiv1/track_usages',
    '/service/service/v1/track_usages',
    '/admin/places',
    '/api',
  ])('%s is left as it is', (url) => {
    expect(canonicalUrl(url)).toBe(url);
  });

  it('names the aliases of the aliased paths only', () => {
    expect(aliasesOf('/v1/track_usages/validate')).toEqual([
      '/service/v1/track_usages/validate',
      '/api/v1/track_usages/validate',
    ]);
    expect(aliasesOf('/partner/auth')).toEqual([]);
  });
});
