import { QueryFailedError } from 'typeorm';
import {
  duplicateKeyName,
  isDatabaseUnreachable,
  isDeadlock,
  isDuplicateKey,
  isTransactionConflict,
  retryTransaction,
} from './mysql-errors';

/** An error as mysql2 raises it, wrapped as TypeORM wraps it. */
function failed(code: string, errno: number, sqlMessage = ''): QueryFailedError {
  return new QueryFailedError('SQL', [], Object.assign(new Error(sqlMessage), { code, errno, sqlMessage }));
}

const deadlock = () => failed('ER_LOCK_DEADLOCK', 1213, 'Deadlock found when trying to get lock');

describe('MySQL errors', () => {
  it('reads a duplicate key and the index it names, as MariaDB and MySQL 8 write it', () => {
    const mariadb = failed(
      'ER_DUP_ENTRY',
      1062,
      "Duplicate entry '555555-x' for key 'UQ_member_check_ins_pending_token'",
    );
    const mysql = failed('ER_DUP_ENTRY', 1062, "Duplicate entry 'a@b' for key 'accounts.UQ_accounts_email'");
    expect(isDuplicateKey(mariadb)).toBe(true);
    expect(duplicateKeyName(mariadb)).toBe('UQ_member_check_ins_pending_token');
    expect(duplicateKeyName(mysql)).toBe('UQ_accounts_email');
    expect(duplicateKeyName(deadlock())).toBeUndefined();
    expect(isDuplicateKey(new Error('Duplicate entry'))).toBe(false);
  });

  it('counts a deadlock (a Galera certification failure is one too) and a lock wait timeout as conflicts', () => {
    expect(isDeadlock(deadlock())).toBe(true);
    expect(isTransactionConflict(deadlock())).toBe(true);
    expect(isTransactionConflict(failed('ER_LOCK_WAIT_TIMEOUT', 1205))).toBe(true);
    // The connection lost a statement prepared on it: the transaction runs again and prepares it.
    expect(isTransactionConflict(failed('ER_UNKNOWN_STMT_HANDLER', 1243))).toBe(true);
    expect(isTransactionConflict(failed('ER_DUP_ENTRY', 1062))).toBe(false);
    // mysql2's own error, unwrapped, reads the same.
    expect(isDeadlock(deadlock().driverError)).toBe(true);
  });

  it('counts a node cut off from its Galera cluster, like a server gone, as unreachable', () => {
    expect(
      isDatabaseUnreachable(
        failed('ER_UNKNOWN_COM_ERROR', 1047, 'WSREP has not yet prepared node for application use'),
      ),
    ).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnreachable(deadlock())).toBe(false);
  });
});

describe('retryTransaction', () => {
  const noPause = () => 0;

  it('runs the work again from its start while it loses conflicts, and answers what the last run answered', async () => {
    let runs = 0;
    const answer = await retryTransaction(
      async () => {
        runs++;
        if (runs < 3) throw deadlock();
        return `run ${runs}`;
      },
      8,
      noPause,
    );
    expect({ answer, runs }).toEqual({ answer: 'run 3', runs: 3 });
  });

  it('gives up after the attempts it was given, with the conflict', async () => {
    let runs = 0;
    await expect(
      retryTransaction(
        async () => {
          runs++;
          throw deadlock();
        },
        4,
        noPause,
      ),
    ).rejects.toMatchObject({ driverError: { code: 'ER_LOCK_DEADLOCK' } });
    expect(runs).toBe(4);
  });

  it('never runs again work that failed otherwise', async () => {
    let runs = 0;
    const duplicate = failed('ER_DUP_ENTRY', 1062);
    await expect(
      retryTransaction(
        async () => {
          runs++;
          throw duplicate;
        },
        8,
        noPause,
      ),
    ).rejects.toBe(duplicate);
    expect(runs).toBe(1);
  });
});
