import { createLogger } from './logging.module';
import { CAPABILITY_SEGMENTS, maskSecretsInText, maskUrl } from './log-masking';

const TOKEN = 'Ab3_-xYz0123456789abcdefghijklmnopqrstuvwxy';

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

  it.each([
    `/account/password-links/${TOKEN}`,
    `/account/password-links/${TOKEN}/`,
    `/account/password-links/${TOKEN}?x=1`,
    `/Account/PASSWORD-LINKS/${TOKEN}`,
    `/service/v1/webhook_confirmations/${TOKEN}`,
    `/api/v1/webhook_confirmations//${TOKEN}`,
    `/api/v1/webhook%5Fconfirmations/${TOKEN}`,
    `/api/v1/webhook_confirmations%2F${TOKEN}`,
    `/api/v1/webhook%255Fconfirmations/${TOKEN}`,
    `/console/#/set-password/${TOKEN}`,
    `/console/%23/set-password/${TOKEN}`,
    `/health?token=${TOKEN}`,
    `/health?Access_Token=${TOKEN}&page=2`,
    `/health?x-api-key=${TOKEN}`,
    `/health?%74oken=${TOKEN}`,
    `/health?next=%2Fconsole%2F%23%2Fset-password%2F${TOKEN}`,
  ])('hides the token of %s, whatever the route, prefix, case or encoding', (url) => {
    expect(maskUrl(url)).not.toContain(TOKEN);
    expect(maskUrl(url)).toContain('***');
  });

  it('keeps what identifies the request apart from the secret', () => {
    expect(maskUrl(`/account/password-links/${TOKEN}?x=1`)).toBe('/account/password-links/***?x=1');
    expect(maskUrl(`/health?page=2&token=${TOKEN}`)).toBe('/health?page=2&token=***');
    expect(maskUrl('/admin/places/3f2a/plans/B0KR5QWH?page=2')).toBe(
      '/admin/places/3f2a/plans/B0KR5QWH?page=2',
    );
  });

  it('masks capability paths quoted in free text', () => {
    expect(maskSecretsInText(`Cannot POST /api/v1/webhook_confirmations/${TOKEN} here`)).toBe(
      'Cannot POST /api/v1/webhook_confirmations/*** here',
    );
    for (const segment of CAPABILITY_SEGMENTS)
      expect(maskSecretsInText(`"/x/${segment}/${TOKEN}"`)).not.toContain(TOKEN);
  });

  it('leaves longer runs of digits and phone numbers alone', () => {
    expect(maskUrl('/x?phone=%2B5511999990000')).toBe('/x?phone=%2B5511999990000');
  });
});

describe('the logger applies the rule to every line, at every level', () => {
  const logged = (write: (logger: ReturnType<typeof createLogger>) => void): string => {
    const lines: string[] = [];
    write(createLogger('trace', { write: (line: string) => lines.push(line) }));
    return lines.join('');
  };

  it.each(['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const)('at %s', (level) => {
    const text = logged((logger) => {
      logger[level](
        { req: { method: 'POST', url: `/account/password-links/${TOKEN}` } },
        'request completed',
      );
      logger[level]({ url: `https://gym.example/hook?token=${TOKEN}` }, 'Webhook endpoint keeps failing');
      logger[level]({ err: new Error(`Route POST:/api/v1/webhook_confirmations/${TOKEN} not found`) }, 'x');
      logger[level](`Cannot GET /account/password-links/${TOKEN}`);
    });
    expect(text).toContain('/account/password-links/***');
    expect(text).not.toContain(TOKEN);
  });
});
