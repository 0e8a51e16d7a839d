import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { isLocale, Locale, LOCALES } from '../common/i18n/locale';

/** Typed, validated configuration. Built once at boot from the environment (and `.env` when present). */
export interface AppConfig {
  nodeEnv: string;
  isProduction: boolean;
  port: number;
  /** The address the HTTP server binds: every interface by default (containers), 127.0.0.1 for the demo. */
  host: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  adminApiToken: string;
  keyEncryptionSecret: string;
  recentCheckinWindowSeconds: number;
  businessTimezone: string;
  webhookAllowPrivateNetworks: boolean;
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  /** Delivery attempts one process runs at once, over every endpoint. */
  webhookWorkers: number;
  /** Attempts of one endpoint (subscription) handed to the queue at once, over every process. */
  webhookEndpointConcurrency: number;
  /** Consecutive failed attempts that open an endpoint's circuit breaker. */
  webhookBreakerFailures: number;
  /** How long an opened breaker holds an endpoint's deliveries back the first time (then doubling, to 1 h). */
  webhookBreakerOpenSeconds: number;
  /** `POST /partner/webhook/test/:type` calls allowed per place per minute (then 429 `rate_limited`). */
  webhookTestEventsPerMinute: number;
  logLevel: string;
  keyCacheTtlMs: number;
  authRateLimitPerMinute: number;
  databasePoolSize: number;
  /** The language of `detail` and `message` when a request has no usable Accept-Language. */
  defaultLocale: Locale;
  /** The service's public address (no trailing slash), for links it hands out: confirmations, password links. */
  publicBaseUrl: string;
  /** Bearer token of the member API (`/member/v1/*`), for the platform's app backend; never the admin token. */
  memberApiToken: string;
  /** How long a member check-in waits for the gym's confirmation, in seconds. */
  checkInConfirmationWindowSeconds: number;
  /** Check-in token look-ups that find nothing, allowed per gym key per minute (then 429 `rate_limited`). */
  tokenLookupFailuresPerMinute: number;
  /** ACCESS_SANDBOX: the Wellhub-compatible sandbox helper (`POST /helper/v1/gyms/:gym_id/simulate/checkins`). */
  accessSandbox: boolean;
  /** A console session ends after this long without a request. */
  sessionIdleMinutes: number;
  /** A console session ends this long after sign-in, however busy. */
  sessionLifetimeHours: number;
  /** The session cookie carries `Secure` (everywhere but development and test). */
  sessionCookieSecure: boolean;
  /** Failed sign-ins allowed per e-mail, and per client address, within the window; then 429. */
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerAddress: number;
  loginFailureWindowMinutes: number;
  /** Bearer token of `GET /metrics` (Prometheus); null turns the route off. */
  metricsToken: string | null;
  /**
   * Which proxies' `X-Forwarded-For` is believed (for the client address that rate limits count): none by
   * default; `true` any, a number that many hops, or a list of addresses and CIDR ranges (`loopback` too).
   */
  trustProxy: boolean | string[];
  /** A request (headers and body) must arrive within this long, or it is answered 408 and its connection closed. */
  httpRequestTimeoutSeconds: number;
  /** Open client connections at most; more are refused at once. */
  httpMaxConnections: number;
  /**
   * The share of one client address: open connections from an address that is not a trusted proxy, and
   * requests in progress at once from one forwarded client address (X-Forwarded-For of a trusted proxy).
   */
  httpMaxConnectionsPerAddress: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Development defaults for secrets; production refuses to start with any of them. */
export const DEFAULT_SECRETS = {
  JWT_SECRET: 'dev-jwt-secret-change-me',
  ADMIN_API_TOKEN: 'dev-admin-token-change-me',
  KEY_ENCRYPTION_SECRET: 'dev-key-encryption-secret-change-me',
  MEMBER_API_TOKEN: 'dev-member-token-change-me',
} as const;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** Reads `.env` from the working directory without overriding variables already set. */
export function readDotEnv(path = resolve(process.cwd(), '.env')): Env {
  if (!existsSync(path)) return {};
  const out: Env = {};
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!match) continue;
    out[match[1]] = match[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

function integer(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = env[name] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL: "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

function secret(env: Env, name: keyof typeof DEFAULT_SECRETS, production: boolean): string {
  const raw = env[name];
  if (production) {
    if (!raw) throw new ConfigError(`${name} is required when NODE_ENV=production`);
    if (raw === DEFAULT_SECRETS[name]) {
      throw new ConfigError(`${name} still has its development default; set a secret value for production`);
    }
    if (raw.length < 16) throw new ConfigError(`${name} must be at least 16 characters in production`);
  }
  return raw || DEFAULT_SECRETS[name];
}

function timezone(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
  } catch {
    throw new ConfigError(`${name} is not a valid IANA time zone: "${raw}"`);
  }
  return raw;
}

function schedule(env: Env, name: string, fallback: string): number[] {
  const raw = env[name] || fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isFinite(value) || value < 0)) {
    throw new ConfigError(`${name} must be a comma-separated list of seconds, got "${raw}"`);
  }
  return values;
}

function locale(env: Env, name: string, fallback: Locale): Locale {
  const raw = env[name] || fallback;
  if (!isLocale(raw)) throw new ConfigError(`${name} must be one of ${LOCALES.join(', ')}, got "${raw}"`);
  return raw;
}

/** PUBLIC_BASE_URL without its trailing slash; production requires it, and https. */
function publicBaseUrl(env: Env, port: number, production: boolean): string {
  if (production && !env.PUBLIC_BASE_URL) {
    throw new ConfigError(
      'PUBLIC_BASE_URL is required when NODE_ENV=production (e.g. https://gyms.example.com)',
    );
  }
  const raw = url(
    env,
    'PUBLIC_BASE_URL',
    `http://localhost:${port}`,
    production ? ['https:'] : ['https:', 'http:'],
  );
  return raw.replace(/\/+$/, '');
}

/** The member API's token: a secret of its own, so that one of the two leaking never opens the other's routes. */
function memberApiToken(env: Env, production: boolean, adminApiToken: string): string {
  const token = secret(env, 'MEMBER_API_TOKEN', production);
  if (token === adminApiToken) {
    throw new ConfigError('MEMBER_API_TOKEN must differ from ADMIN_API_TOKEN');
  }
  return token;
}

/**
 * METRICS_TOKEN: optional (unset, `/metrics` is off, in every environment); when set, a secret of its own, at
 * least 16 characters in production, so that a scraper's token never opens the admin or member routes.
 */
function metricsToken(env: Env, production: boolean, otherTokens: string[]): string | null {
  const raw = env.METRICS_TOKEN;
  if (!raw) return null;
  if (production && raw.length < 16) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters in production');
  }
  if (otherTokens.includes(raw)) {
    throw new ConfigError('METRICS_TOKEN must differ from ADMIN_API_TOKEN and MEMBER_API_TOKEN');
  }
  return raw;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const IP_OR_CIDR = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)(?:\/\d{1,3})?$/;

/**
 * TRUST_PROXY: unset or `false` trusts no one; `true`, or addresses, CIDRs and `loopback`. A hop count is
 * refused: it cannot tell a proxy from a client that sends X-Forwarded-For itself (Fastify trusts no one for it).
 */
function trustProxy(env: Env): boolean | string[] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(
      'TRUST_PROXY cannot be a hop count (a client could send the hops itself); name the proxies instead: addresses, CIDR ranges or loopback, separated by commas',
    );
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !PROXY_NAMES.includes(entry) && !IP_OR_CIDR.test(entry));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be false, true, or addresses, CIDR ranges and loopback separated by commas; "${bad}" is none of these`,
    );
  }
  return entries;
}

function listenAddress(env: Env): string {
  const host = env.HOST?.trim() || '0.0.0.0';
  if (isIP(host) === 0 && host !== 'localhost') {
    throw new ConfigError(`HOST must be an IP address to listen on (e.g. 127.0.0.1 or 0.0.0.0), got "${host}"`);
  }
  return host;
}

export function validateConfig(input: Env): AppConfig {
  const env: Env = { ...readDotEnv(), ...input };
  const nodeEnv = env.NODE_ENV || 'development';
  const production = nodeEnv === 'production';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  // Secrets in this order, so the first one missing is the one named.
  const jwtSecret = secret(env, 'JWT_SECRET', production);
  const adminApiToken = secret(env, 'ADMIN_API_TOKEN', production);
  const config: Omit<AppConfig, 'metricsToken'> = {
    nodeEnv,
    isProduction: production,
    port,
    host: listenAddress(env),
    databaseUrl: url(env, 'DATABASE_URL', 'mysql://root@127.0.0.1:3306/gym_integration', [
      'mysql:',
      'mariadb:',
    ]),
    redisUrl: url(env, 'REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    queuePrefix: env.QUEUE_PREFIX || 'gym',
    jwtSecret,
    jwtTtlSeconds: integer(env, 'JWT_TTL_SECONDS', 86400, 1),
    adminApiToken,
    keyEncryptionSecret: secret(env, 'KEY_ENCRYPTION_SECRET', production),
    recentCheckinWindowSeconds: integer(env, 'RECENT_CHECKIN_WINDOW_SECONDS', 5400, 0),
    businessTimezone: timezone(env, 'BUSINESS_TIMEZONE', 'America/Sao_Paulo'),
    webhookAllowPrivateNetworks: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    webhookRetrySchedule: schedule(env, 'WEBHOOK_RETRY_SCHEDULE', '5,300,1800,7200,18000,36000,36000'),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 15000, 1),
    webhookWorkers: integer(env, 'WEBHOOK_WORKERS', 64, 1, 1000),
    webhookEndpointConcurrency: integer(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 64, 1, 1000),
    webhookBreakerFailures: integer(env, 'WEBHOOK_BREAKER_FAILURES', 5, 1, 1000),
    webhookBreakerOpenSeconds: integer(env, 'WEBHOOK_BREAKER_OPEN_SECONDS', 30, 1, 3600),
    webhookTestEventsPerMinute: integer(env, 'WEBHOOK_TEST_EVENTS_PER_MINUTE', 10, 1, 10000),
    logLevel: env.LOG_LEVEL || (production ? 'info' : 'debug'),
    keyCacheTtlMs: integer(env, 'KEY_CACHE_TTL_MS', 5000, 0),
    authRateLimitPerMinute: integer(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 60, 1),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 1, 1000),
    defaultLocale: locale(env, 'DEFAULT_LOCALE', 'pt-BR'),
    publicBaseUrl: publicBaseUrl(env, port, production),
    memberApiToken: memberApiToken(env, production, adminApiToken),
    checkInConfirmationWindowSeconds: integer(env, 'CHECK_IN_CONFIRMATION_WINDOW_SECONDS', 5400, 1, 86400),
    tokenLookupFailuresPerMinute: integer(env, 'TOKEN_LOOKUP_FAILURES_PER_MINUTE', 30, 1),
    accessSandbox: boolean(env, 'ACCESS_SANDBOX', false),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 30, 1, 7 * 24 * 60),
    sessionLifetimeHours: integer(env, 'SESSION_LIFETIME_HOURS', 12, 1, 30 * 24),
    sessionCookieSecure: !['development', 'test'].includes(nodeEnv),
    loginMaxFailuresPerAccount: integer(env, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 5, 1, 1000),
    loginMaxFailuresPerAddress: integer(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 20, 1, 100000),
    loginFailureWindowMinutes: integer(env, 'LOGIN_FAILURE_WINDOW_MINUTES', 15, 1, 24 * 60),
    trustProxy: trustProxy(env),
    httpRequestTimeoutSeconds: integer(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 30, 1, 3600),
    httpMaxConnections: integer(env, 'HTTP_MAX_CONNECTIONS', 1024, 1, 1_000_000),
    httpMaxConnectionsPerAddress: integer(env, 'HTTP_MAX_CONNECTIONS_PER_ADDRESS', 128, 1, 1_000_000),
  };
  return {
    ...config,
    metricsToken: metricsToken(env, production, [config.adminApiToken, config.memberApiToken]),
  };
}

/** The configuration of this process, from `process.env`. */
export function loadConfig(overrides: Env = {}): AppConfig {
  return validateConfig({ ...process.env, ...overrides });
}

/** The port of the demo's webhook receiver: DEMO_RECEIVER_PORT, else the one after the service's PORT. */
export function demoReceiverPort(config: AppConfig, overrides: Env = {}): number {
  return integer(
    { ...readDotEnv(), ...process.env, ...overrides },
    'DEMO_RECEIVER_PORT',
    config.port + 1,
    1,
    65535,
  );
}

/** Sets variables that are not set yet (the demo's development defaults), before the config is loaded. */
export function setEnvDefaults(defaults: Env): void {
  for (const [name, value] of Object.entries(defaults))
    if (process.env[name] === undefined) process.env[name] = value;
}
