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
    expect(config.checkInConfirmationWindowSeconds).toBe(5400);
    expect(config.tokenLookupFailuresPerMinute).toBe(30);
    expect(config.memberApiToken).toBe(DEFAULT_SECRETS.MEMBER_API_TOKEN);
    expect(config.sessionIdleMinutes).toBe(30);
    expect(config.sessionLifetimeHours).toBe(12);
    expect([config.loginMaxFailuresPerAccount, config.loginMaxFailuresPerAddress]).toEqual([5, 20]);
    expect(config.loginFailureWindowMinutes).toBe(15);
    expect(config.trustProxy).toBe(false);
    expect([config.httpRequestTimeoutSeconds, config.httpMaxConnections]).toEqual([30, 1024]);
    expect(config.httpMaxConnectionsPerAddress).toBe(128);
  });

  it('takes a per-address share of connections between 1 and 1,000,000', () => {
    expect(validateConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '16' }).httpMaxConnectionsPerAddress).toBe(16);
    for (const bad of ['0', '-1', '1.5', 'many', '1000001'])
      expect(() => validateConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: bad })).toThrow(
        /HTTP_MAX_CONNECTIONS_PER_ADDRESS must be an integer between 1 and 1000000/,
      );
  });

  it('listens on every interface unless HOST names one, and refuses a HOST that is not an address', () => {
    expect(validateConfig({}).host).toBe('0.0.0.0');
    expect(validateConfig({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(() => validateConfig({ HOST: 'not an address' })).toThrow(/HOST must be an IP address/);
  });

  it('trusts X-Forwarded-For only as TRUST_PROXY says', () => {
    expect(validateConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(validateConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => validateConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY cannot be a hop count/);
    expect(validateConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(() => validateConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY.*"everyone"/);
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
      MEMBER_API_TOKEN: 'a-member-token-of-some-length',
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

  describe('MEMBER_API_TOKEN', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-real-secret-of-some-length',
      ADMIN_API_TOKEN: 'an-admin-token-of-some-length',
      KEY_ENCRYPTION_SECRET: 'another-real-secret-value',
      PUBLIC_BASE_URL: 'https://gyms.example.com',
    };

    it('follows the rules of the other secrets in production', () => {
      expect(() => validateConfig(production)).toThrow(
        'MEMBER_API_TOKEN is required when NODE_ENV=production',
      );
      expect(() =>
        validateConfig({ ...production, MEMBER_API_TOKEN: DEFAULT_SECRETS.MEMBER_API_TOKEN }),
      ).toThrow('MEMBER_API_TOKEN still has its development default');
      expect(() => validateConfig({ ...production, MEMBER_API_TOKEN: 'short' })).toThrow(
        'MEMBER_API_TOKEN must be at least 16 characters in production',
      );
    });

    it('can never be the admin token, in any environment', () => {
      expect(() => validateConfig({ ...production, MEMBER_API_TOKEN: production.ADMIN_API_TOKEN })).toThrow(
        'MEMBER_API_TOKEN must differ from ADMIN_API_TOKEN',
      );
      expect(() =>
        validateConfig({ ADMIN_API_TOKEN: 'same-token-here', MEMBER_API_TOKEN: 'same-token-here' }),
      ).toThrow('MEMBER_API_TOKEN must differ from ADMIN_API_TOKEN');
    });
  });

  it.each([
    ['SESSION_IDLE_MINUTES', '0'],
    ['LOGIN_MAX_FAILURES_PER_ACCOUNT', 'many'],
    ['PORT', 'abc'],
    ['CHECK_IN_CONFIRMATION_WINDOW_SECONDS', '0'],
    ['TOKEN_LOOKUP_FAILURES_PER_MINUTE', 'many'],
    ['BUSINESS_TIMEZONE', 'Mars/Olympus'],
    ['WEBHOOK_RETRY_SCHEDULE', '5,x'],
    ['DATABASE_URL', 'postgres://x'],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'maybe'],
    ['DEFAULT_LOCALE', 'fr'],
    ['PUBLIC_BASE_URL', 'not a url'],
  ])('rejects an invalid %s and names it', (name, value) => {
    expect(() => validateConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  describe('METRICS_TOKEN', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'a-real-secret-of-some-length',
      ADMIN_API_TOKEN: 'an-admin-token-of-some-length',
      KEY_ENCRYPTION_SECRET: 'another-real-secret-value',
      PUBLIC_BASE_URL: 'https://gyms.example.com',
      MEMBER_API_TOKEN: 'a-member-token-of-some-length',
    };

    it('is optional: unset, the metrics route is off', () => {
      expect(validateConfig(production).metricsToken).toBeNull();
      expect(validateConfig({ METRICS_TOKEN: 'scrape' }).metricsToken).toBe('scrape');
    });

    it('is a secret of its own, long enough in production', () => {
      expect(() => validateConfig({ ...production, METRICS_TOKEN: 'short' })).toThrow(
        'METRICS_TOKEN must be at least 16 characters in production',
      );
      expect(() => validateConfig({ ...production, METRICS_TOKEN: production.MEMBER_API_TOKEN })).toThrow(
        'METRICS_TOKEN must differ from ADMIN_API_TOKEN and MEMBER_API_TOKEN',
      );
      expect(validateConfig({ ...production, METRICS_TOKEN: 'a-scraper-token-of-length' }).metricsToken).toBe(
        'a-scraper-token-of-length',
      );
    });
  });
});
