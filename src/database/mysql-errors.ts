/**
 * What a MySQL (MariaDB, Galera) error means to the service, in one place: a duplicate key, a transaction that
 * lost a conflict (and is run again from its start), a database that cannot be reached. Errors arrive as
 * TypeORM's QueryFailedError (its `driverError` is mysql2's) or as mysql2's own; both are read here.
 */

interface DriverError {
  code?: unknown;
  errno?: unknown;
  fatal?: unknown;
  sqlMessage?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

/** The mysql2 error inside `error` (itself, or the driverError/cause it wraps). */
function driverErrorOf(error: unknown): DriverError | undefined {
  let cause = error;
  for (let depth = 0; cause && typeof cause === 'object' && depth < 4; depth++) {
    const each = cause as DriverError;
    if (typeof each.code === 'string' || typeof each.errno === 'number') return each;
    cause = each.driverError ?? each.cause;
  }
  return undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = driverErrorOf(error)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A unique index refused the row: ER_DUP_ENTRY (1062). */
export function isDuplicateKey(error: unknown): boolean {
  return codeOf(error) === 'ER_DUP_ENTRY';
}

/**
 * The name of the unique index a duplicate-key error names (`PRIMARY`, `UQ_…`, `IDX_…`), or undefined for any
 * other error. MariaDB writes `for key 'IDX_…'`, MySQL 8 `for key 'table.IDX_…'`.
 */
export function duplicateKeyName(error: unknown): string | undefined {
  if (!isDuplicateKey(error)) return undefined;
  const message = String(driverErrorOf(error)?.sqlMessage ?? '');
  const key = /for key '([^']*)'/.exec(message)?.[1] ?? '';
  return key.slice(key.lastIndexOf('.') + 1);
}

/**
 * The transaction lost a conflict and was rolled back: a deadlock between two transactions of one server, or on
 * Galera a certification failure (another node committed a conflicting write first, seen at any statement,
 * COMMIT included): ER_LOCK_DEADLOCK (1213) in both cases.
 */
export function isDeadlock(error: unknown): boolean {
  return codeOf(error) === 'ER_LOCK_DEADLOCK';
}

/** A statement waited longer than innodb_lock_wait_timeout for a row lock (1205). */
export function isLockWaitTimeout(error: unknown): boolean {
  return codeOf(error) === 'ER_LOCK_WAIT_TIMEOUT';
}

/**
 * A transaction that running again from its start may well get through: a deadlock (or certification
 * failure), a lock wait timeout, ER_CHECKREAD (1020, a row changed since this transaction's snapshot read
 * it, under MariaDB 11's innodb_snapshot_isolation), or a prepared statement the connection lost.
 */
export function isTransactionConflict(error: unknown): boolean {
  return (
    isDeadlock(error) ||
    isLockWaitTimeout(error) ||
    codeOf(error) === 'ER_CHECKREAD' ||
    isUnknownPreparedStatement(error)
  );
}

/**
 * ER_UNKNOWN_STMT_HANDLER (1243): the connection no longer holds a statement the service prepared on it (a proxy
 * between the service and the server handed it another server connection, or the session was reset). The
 * batch forgets what it had prepared there, and the transaction, rolled back whole, runs again and prepares it.
 */
export function isUnknownPreparedStatement(error: unknown): boolean {
  return codeOf(error) === 'ER_UNKNOWN_STMT_HANDLER' || driverErrorOf(error)?.errno === 1243;
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
  // A Galera node outside the primary component: "WSREP has not yet prepared node for application use".
  'ER_UNKNOWN_COM_ERROR',
]);

/**
 * Whether an error says the database cannot be reached (refused, reset, gone away, shutting down, too many
 * connections, a Galera node cut off from its cluster), as opposed to a query the database refused: the
 * request may succeed later, so it is 503.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 4; depth++) {
    const { code, fatal } = cause as DriverError;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (fatal === true && typeof code === 'string' && !code.startsWith('ER_')) return true;
    const next = cause as DriverError;
    cause = next.driverError ?? next.cause;
  }
  return false;
}

/** How many times a transaction runs, in all, while it keeps losing conflicts. */
export const TRANSACTION_ATTEMPTS = 8;

/**
 * The retry rule of every transaction: one that lost a conflict (isTransactionConflict) at any statement,
 * COMMIT included, was rolled back whole, so `work` runs again from its start (it reads again, and answers what
 * the rules say now: `already_used`, say). Up to `attempts` runs, a few random milliseconds apart (more after
 * each loss), which lets the winner's write reach this node; after the last the conflict is thrown (503).
 */
export async function retryTransaction<T>(
  work: () => Promise<T>,
  attempts = TRANSACTION_ATTEMPTS,
  random = Math.random,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= attempts) throw error;
      const pause = Math.round(random() * 2 ** Math.min(attempt, 6));
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
