import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { BatchTransaction, SessionVariable, Statement } from './statement-batch';

/** The part of a mysql2 connection or pool (callback API) that runs a prepared statement. */
interface PreparedStatementRunner {
  execute(sql: string, values: unknown[], callback: (error: Error | null, result: unknown) => void): void;
}

/** The transaction's own connection for a transaction's manager, the pool otherwise. */
async function runnerFor(executor: DataSource | EntityManager): Promise<PreparedStatementRunner> {
  const queryRunner = executor instanceof EntityManager ? executor.queryRunner : undefined;
  if (queryRunner) {
    if (queryRunner.isReleased) throw new Error('The transaction of this statement has already ended');
    // Already connected inside a transaction: this hands back the connection that holds it.
    return (await queryRunner.connect()) as PreparedStatementRunner;
  }
  const dataSource = executor instanceof DataSource ? executor : executor.connection;
  return (dataSource.driver as MysqlDriver).pool as PreparedStatementRunner;
}

/**
 * Runs one statement as a server-side prepared statement (mysql2 `execute`): MySQL parses it once per
 * connection instead of once per request, a fifth of the check-in query's cost there. Errors come back as
 * TypeORM's QueryFailedError, like those of `query`. The SQL must be one of a few constant texts: mysql2
 * keeps a statement per text and connection.
 */
export async function executePrepared<T>(
  executor: DataSource | EntityManager,
  sql: string,
  values: unknown[],
): Promise<T> {
  if (values.some((value) => value instanceof SessionVariable))
    throw new Error('A session variable is read only in the BatchTransaction that sets it');
  const runner = await runnerFor(executor);
  return new Promise<T>((resolve, reject) => {
    runner.execute(sql, values, (error, result) => {
      if (error) reject(new QueryFailedError(sql, values, error));
      else resolve(result as T);
    });
  });
}

/**
 * Runs `statement` on whichever executor the caller is in: a BatchTransaction (in its next round trip),
 * else as a prepared statement of the transaction or the pool.
 */
export async function runStatement<T>(
  executor: DataSource | EntityManager | BatchTransaction,
  statement: Statement<T>,
): Promise<T> {
  if (executor instanceof BatchTransaction) return (await executor.run(statement))[0];
  return statement.read(await executePrepared(executor, statement.sql, [...statement.values]));
}
