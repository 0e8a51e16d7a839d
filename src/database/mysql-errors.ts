import { QueryFailedError } from 'typeorm';

/** A transaction that lost a deadlock or waited too long for a lock: running it again is the remedy. */
export function isDeadlock(error: unknown): boolean {
  const code = error instanceof QueryFailedError ? (error.driverError as { code?: string })?.code : undefined;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}
