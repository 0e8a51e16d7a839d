import type { Pool, PoolConnection } from 'mysql2';
import { QueryFailedError } from 'typeorm';

/**
 * One SQL statement with its values and how to read its result (rows for a SELECT, the OK packet of a
 * write). `read` may throw: the transaction then ends there, rolled back.
 */
export interface Statement<T = unknown> {
  readonly sql: string;
  readonly values: readonly unknown[];
  read(result: unknown): T;
}

export function statement<T = unknown>(
  sql: string,
  values: readonly unknown[],
  read: (result: unknown) => T = (result) => result as T,
): Statement<T> {
  return { sql, values, read };
}

/** The OK packet MySQL answers a write with. */
export interface WriteResult {
  affectedRows: number;
  insertId: number | string;
}

type Results<S extends readonly Statement[]> = {
  -readonly [K in keyof S]: S[K] extends Statement<infer R> ? R : never;
};

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ';

const START = statement('START TRANSACTION', []);
const COMMIT = statement('COMMIT', []);

/**
 * A transaction whose statements travel together: each `run` sends everything it is given (and whatever was
 * `enqueue`d before it) as one multi-statement text in one round trip, and `commit` sends its statements with
 * the COMMIT. A check-in then costs two round trips (locks and facts; writes and commit) instead of seven:
 * on this service's hot paths the statements' round trips, not the statements, were most of the cost.
 * The texts are constants of the code with `?` placeholders; values are escaped by mysql2, never spliced.
 */
export class BatchTransaction {
  private pending: Statement[];
  private finished = false;

  constructor(
    private readonly connection: PoolConnection,
    isolation?: IsolationLevel,
  ) {
    this.pending = isolation
      ? [statement(`SET TRANSACTION ISOLATION LEVEL ${isolation}`, []), START]
      : [START];
  }

  /** Sends `statement` with the next round trip, ahead of that round trip's own statements. */
  enqueue(statement: Statement): void {
    this.pending.push(statement);
  }

  /** Runs the statements (after any enqueued) in one round trip; answers each one's read result. */
  async run<S extends readonly Statement[]>(...statements: S): Promise<Results<S>> {
    return this.send(statements, false);
  }

  /** Runs the statements and COMMIT in one round trip; the transaction is over after it. */
  async commit<S extends readonly Statement[]>(...statements: S): Promise<Results<S>> {
    return this.send(statements, true);
  }

  /** One statement in a round trip of its own, answered as mysql2 answers it (rows, or the OK packet). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape of TypeORM's `query`
  async query(sql: string, values: unknown[] = []): Promise<any> {
    return (await this.run(statement(sql, values)))[0];
  }

  /** Rolls back unless already ended; the connection stays usable. */
  async rollback(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.pending = [];
    await this.sendText('ROLLBACK', []);
  }

  get ended(): boolean {
    return this.finished;
  }

  private async send<S extends readonly Statement[]>(statements: S, commit: boolean): Promise<Results<S>> {
    if (this.finished) throw new Error('This transaction has already ended');
    const queued = this.pending;
    this.pending = [];
    const all = [...queued, ...statements, ...(commit ? [COMMIT] : [])];
    if (all.length === 0) return [] as unknown as Results<S>;
    const sql = all.map((each) => each.sql).join(';\n');
    const values = all.flatMap((each) => each.values);
    const raw = await this.sendText(sql, values);
    if (commit) this.finished = true;
    // One statement comes back as its own result, several as a list of them.
    const results = all.length === 1 ? [raw] : (raw as unknown[]);
    // Each result read once, in order: an enqueued statement's reader may end the transaction first.
    queued.forEach((each, index) => each.read(results[index]));
    return statements.map((each, index) => each.read(results[queued.length + index])) as Results<S>;
  }

  private sendText(sql: string, values: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.connection.query({ sql, values }, (error, result) => {
        if (error) reject(new QueryFailedError(sql, values, error));
        else resolve(result);
      });
    });
  }
}

/**
 * Runs `work` in a BatchTransaction on a connection of `pool` (which must allow multiple statements): what
 * `work` did not commit is rolled back, and a connection the transaction could not be ended on is dropped.
 */
export async function inBatchTransaction<T>(
  pool: Pool,
  work: (tx: BatchTransaction) => Promise<T>,
  isolation?: IsolationLevel,
): Promise<T> {
  const connection = await new Promise<PoolConnection>((resolve, reject) =>
    pool.getConnection((error, got) => (error ? reject(error) : resolve(got))),
  );
  const tx = new BatchTransaction(connection, isolation);
  let healthy = true;
  try {
    const result = await work(tx);
    if (!tx.ended) await tx.commit();
    return result;
  } catch (error) {
    try {
      await tx.rollback();
    } catch {
      healthy = false;
    }
    throw error;
  } finally {
    if (healthy) connection.release();
    else connection.destroy();
  }
}
