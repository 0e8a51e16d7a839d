import { QueryFailedError } from 'typeorm';

/** A transaction that lost a deadlock or waited too long for a lock: running it again is the remedy. */
export function isDeadlock(error: unknown): boolean {
  const code = error instanceof QueryFailedError ? (error.driverError as { code?: string })?.code : undefined;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_SERVER_GONE_ERROR',
  'CR_CONNECTION_ERROR',
  'CR_CONN_HOST_ERROR',
  'CR_SERVER_GONE_ERROR',
  'CR_SERVER_LOST',
]);

/**
 * Whether an error says the database cannot be reached (refused, reset, gone away, shutting down, too many
 * connections), as opposed to a query the database refused: the request may succeed later, so it is 503.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 4; depth++) {
    const { code, fatal } = cause as { code?: unknown; fatal?: unknown };
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (fatal === true && typeof code === 'string' && !code.startsWith('ER_')) return true;
    const next = cause as { driverError?: unknown; cause?: unknown };
    cause = next.driverError ?? next.cause;
  }
  return false;
}

/** Runs `work` again, up to `attempts` times in all, while it fails with a deadlock or a lock wait timeout. */
export async function retryOnDeadlock<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDeadlock(error) || attempt >= attempts) throw error;
    }
  }
}
