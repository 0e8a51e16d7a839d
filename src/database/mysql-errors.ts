import { QueryFailedError } from 'typeorm';

/** A transaction that lost a deadlock or waited too long for a lock: running it again is the remedy. */
export function isDeadlock(error: unknown): boolean {
  const code = error instanceof QueryFailedError ? (error.driverError as { code?: string })?.code : undefined;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
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
