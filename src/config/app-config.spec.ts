import { DEFAULT_SECRETS, validateConfig } from './app-config';

describe('validateConfig', () => {
  it('applies the documented defaults', () => {
    const config = validateConfig({});
    expect(config.port).toBe(3000);
    expect(config.jwtTtlSeconds).toBe(86400);
    expect(config.recentCheckinWindowSeconds).toBe(5400);
    expect(config.businessTimezone).toBe('America/Sao_Paulo');
    expect(config.webhookRetrySchedule).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(config.webhookTimeoutMs).toBe(15000);
    expect(config.webhookAllowPrivateNetworks).toBe(false);
    expect(config.sessionIdleMinutes).toBe(30);
    expect(config.sessionLifetimeHours).toBe(12);
    expect([config.loginMaxFailuresPerAccount, config.loginMaxFailuresPerAddress]).toEqual([5, 20]);
    expect(config.loginFailureWindowMinutes).toBe(15);
  });

  it('marks the session cookie Secure everywhere but development and test', () => {
    expect(validateConfig({ NODE_ENV: 'development' }).sessionCookieSecure).toBe(false);
    expect(validateConfig({ NODE_ENV: 'test' }).sessionCookieSecure).toBe(false);
    expect(validateConfig({ NODE_ENV: 'staging' }).sessionCookieSecure).toBe(true);
  });

  it('refuses to start in production with a missing secret and names it', () => {
    expect(() => validateConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
  });

  it('refuses to start in production with a default secret and names it', () => {
    expect(() =>
      validateConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 'a-real-secret-of-some-length',
        ADMIN_API_TOKEN: DEFAULT_SECRETS.ADMIN_API_TOKEN,
        KEY_ENCRYPTION_SECRET: 'another-real-secret-value',
      }),
    ).toThrow(/ADMIN_API_TOKEN/);
  });

  it('accepts production with real secrets', () => {
    const config = validateConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-real-secret-of-some-length',
      ADMIN_API_TOKEN: 'an-admin-token-of-some-length',
      KEY_ENCRYPTION_SECRET: 'another-real-secret-value',
      PUBLIC_BASE_URL: 'https://gyms.example.com/',
    });
    expect(config.isProduction).toBe(true);
    expect(config.publicBaseUrl).toBe('https://gyms.example.com');
  });

  it('needs an https PUBLIC_BASE_URL in production, and defaults to the local port elsewhere', () => {
    const secrets = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-real-secret-of-some-length',
      ADMIN_API_TOKEN: 'an-admin-token-of-some-length',
      KEY_ENCRYPTION_SECRET: 'another-real-secret-value',
    };
    expect(() => validateConfig(secrets)).toThrow(/PUBLIC_BASE_URL/);
    expect(() => validateConfig({ ...secrets, PUBLIC_BASE_URL: 'http://gyms.example.com' })).toThrow(
      /PUBLIC_BASE_URL/,
    );
    expect(validateConfig({ PORT: '3100' }).publicBaseUrl).toBe('http://localhost:3100');
    expect(validateConfig({}).defaultLocale).toBe('pt-BR');
  });

  it.each([
    ['SESSION_IDLE_MINUTES', '0'],
    ['LOGIN_MAX_FAILURES_PER_ACCOUNT', 'many'],
    ['PORT', 'abc'],
    ['BUSINESS_TIMEZONE', 'Mars/Olympus'],
    ['WEBHOOK_RETRY_SCHEDULE', '5,x'],
    ['DATABASE_URL', 'postgres://x'],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['DEFAULT_LOCALE', 'fr'],
    ['PUBLIC_BASE_URL', 'not a url'],
  ])('rejects an invalid %s and names it', (name, value) => {
    expect(() => validateConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});
