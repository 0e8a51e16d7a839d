import type { Pool, PoolConnection } from 'mysql2';
import { QueryFailedError } from 'typeorm';
import { isUnknownPreparedStatement } from './mysql-errors';
import { sqlLiteral, utcDateText } from './sql-literal';

/**
 * One SQL statement with its values and how to read its result (rows for a SELECT, the OK packet of a
 * write). `read` may throw: the transaction then ends there, rolled back.
 */
export interface Statement<T = unknown> {
  readonly sql: string;
  readonly values: readonly unknown[];
  read(result: unknown): T;
  /**
   * Sent only on a Galera cluster (a BatchTransaction with `oneStatementPerRoundTrip`), where a write is what
   * makes two nodes' transactions conflict; on one server the row locks the transaction takes already order
   * them, and the statement is left out (its result reads as undefined).
   */
  readonly clusterOnly?: boolean;
  /**
   * Sent as `EXECUTE` of a statement prepared once per connection (see `prepared`; on one server): the server
   * parses and resolves its text once, not at every call. Its values must be scalars (no lists).
   */
  readonly prepared?: boolean;
}

/** A statement's result as it comes, for statements with no reader of their own. */
const asItIs = (result: unknown) => result;

export function statement<T = unknown>(
  sql: string,
  values: readonly unknown[],
  read: (result: unknown) => T = asItIs as (result: unknown) => T,
): Statement<T> {
  return { sql, values, read };
}

/**
 * A statement of the hot paths whose text is a constant: in a BatchTransaction on one server it is prepared on
 * each connection the first time that connection sends it (`PREPARE` in the same round trip) and then sent as
 * `EXECUTE ... USING` with its values, still inside the multi-statement round trip; on a Galera cluster, where
 * each statement travels alone, it is sent as text. Measured on the check-in's facts read: a fifth to a third
 * less server CPU than the same text parsed at every call (docs/performance.md).
 */
export function prepared<T = unknown>(
  sql: string,
  values: readonly unknown[],
  read?: (result: unknown) => T,
): Statement<T> {
  // A literal rather than a spread of statement(): on the hot paths, a third of a microsecond each.
  return { sql, values, read: read ?? (asItIs as (result: unknown) => T), prepared: true };
}

/**
 * A user variable of the transaction's connection (`@name`), as a statement's value: set by a statement sent
 * before it in the same transaction (usually the same round trip), so that the statements after that one use
 * what it found without a round trip of their own. mysql2 writes it as `@name` where a value would be escaped
 * (`toSqlString`), in a plain text as in `EXECUTE ... USING`. Only in a BatchTransaction, whose statements share
 * one connection (executePrepared refuses it). A variable keeps its value on the pooled connection after the
 * transaction: a statement that sets it only from the rows it finds must come after one that resets it (see
 * FORGET_LOOKED_UP), or a later transaction's statements could read an earlier one's value.
 */
export class SessionVariable {
  constructor(readonly name: string) {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`Not a session variable's name: ${name}`);
  }

  toSqlString(): string {
    return `@${this.name}`;
  }

  toString(): string {
    return `@${this.name}`;
  }
}

/**
 * The texts prepared so far, with the name each goes by on every connection. Bounded: the hot paths have a few
 * dozen constant texts, and a text past the bound (one built with varying parts by mistake) is sent as plain
 * text instead of filling the server's prepared statements (max_prepared_stmt_count).
 */
const preparedNames = new Map<string, string>();
const MAX_PREPARED_TEXTS = 100;
function preparedName(sql: string): string | undefined {
  let name = preparedNames.get(sql);
  if (!name && preparedNames.size < MAX_PREPARED_TEXTS) {
    name = `batch_${preparedNames.size + 1}`;
    preparedNames.set(sql, name);
  }
  return name;
}

/**
 * The text `build` makes for `key`, built the first time and the same string after: for a statement text made of
 * a few known parts. preparedName finds a prepared statement by its text, and a text built afresh at each call is
 * copied and hashed again every time (V8 keeps a string's hash in the string). Bounded as preparedNames: past
 * MAX_PREPARED_TEXTS keys the text is built at each call.
 */
export function builtOnce(texts: Map<string, string>, key: string, build: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = build();
    if (texts.size < MAX_PREPARED_TEXTS) texts.set(key, text);
  }
  return text;
}

/** The prepared names each connection holds (a connection that is gone takes its set with it). */
const preparedOn = new WeakMap<object, Set<string>>();

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

export interface BatchTransactionOptions {
  /** The transaction's own level (the session's, REPEATABLE READ, otherwise). */
  isolation?: IsolationLevel;
  /**
   * Each statement in a round trip of its own (with the statements that open the transaction riding along with
   * the first): on a Galera node. There a transaction aborted by a conflicting write from another node between
   * two statements of one multi-statement text is rolled back, and the text's later statements then run and
   * commit on their own, outside it (its event without its visit, a COMMIT that answers OK with nothing
   * stored). The abort is reported to the client at its next command, so one statement per command never lets
   * a statement run after it (docs/galera.md has the experiment).
   */
  oneStatementPerRoundTrip?: boolean;
}

/**
 * A transaction whose statements travel together: each `run` sends everything it is given (and whatever was
 * `enqueue`d before it) as one multi-statement text in one round trip, and `commit` sends its statements with
 * the COMMIT. A check-in then costs two round trips (locks and facts; writes and commit) instead of seven:
 * on this service's hot paths the statements' round trips, not the statements, were most of the cost.
 * The texts are constants of the code with `?` placeholders; values are escaped (by mysql2, or by sql-literal.ts
 * into literals that read back the same), never spliced.
 * With `oneStatementPerRoundTrip` (Galera) the same calls send the statements one by one, each read as it
 * answers, so that a read that ends the transaction stops the statements after it.
 */
export class BatchTransaction {
  private pending: Statement[];
  private finished = false;
  /** Statements that only open the transaction: nothing of it can be aborted before they run. */
  private readonly opening: Set<Statement>;
  private readonly apart: boolean;
  /** The connection writes times in UTC (`timezone: 'Z'`, as every pool of the service): sql-literal.ts applies. */
  private readonly utc: boolean;

  constructor(
    private readonly connection: PoolConnection,
    { isolation, oneStatementPerRoundTrip = false }: BatchTransactionOptions = {},
  ) {
    const setIsolation = isolation && statement(`SET TRANSACTION ISOLATION LEVEL ${isolation}`, []);
    this.pending = setIsolation ? [setIsolation, START] : [START];
    this.opening = new Set(this.pending);
    this.apart = oneStatementPerRoundTrip;
    this.utc = (connection as { config?: { timezone?: string } }).config?.timezone === 'Z';
  }

  /**
   * Sends `statement` with the next round trip, ahead of that round trip's own statements. With `opening` it
   * only prepares the transaction (it sets session state and writes nothing, so nothing can abort it): with
   * `oneStatementPerRoundTrip` it then rides with the next statement instead of taking a round trip of its own.
   */
  enqueue(statement: Statement, { opening = false }: { opening?: boolean } = {}): void {
    this.pending.push(statement);
    if (opening) this.opening.add(statement);
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
    const all = [...queued, ...statements];
    if (commit) all.push(COMMIT);
    // Each statement's read result by its place in `all`: a statement left out reads as undefined.
    const read: unknown[] = new Array(all.length);
    const sent: number[] = [];
    for (let index = 0; index < all.length; index++)
      if (this.apart || !all[index].clusterOnly) sent.push(index);
    let next = 0;
    for (const packet of this.packets(sent.length === all.length ? all : sent.map((index) => all[index]))) {
      const results = await this.sendPacket(packet);
      // Each result read once, in order: an enqueued statement's reader may end the transaction first.
      for (let index = 0; index < packet.length; index++)
        read[sent[next++]] = packet[index].read(results[index]);
    }
    return read.slice(queued.length, queued.length + statements.length) as Results<S>;
  }

  /**
   * One round trip: the statements' texts in one multi-statement text, a PREPARE the connection lacks in front
   * of its EXECUTE (on Galera every statement travels alone: no PREPARE rides along, see
   * `oneStatementPerRoundTrip`). Answers each statement's result, a PREPARE's skipped.
   */
  private async sendPacket(packet: readonly Statement[]): Promise<unknown[]> {
    const held = this.preparedNames();
    const preparing: string[] = [];
    // Where each statement's answer stands among the answers (after any PREPARE of its own).
    const answerAt: number[] = [];
    let text = '';
    let answers = 0;
    for (const each of packet) {
      const name = each.prepared && !this.apart ? preparedName(each.sql) : undefined;
      let part: string;
      if (!name) part = this.format(each.sql, each.values);
      else {
        part =
          each.values.length === 0
            ? `EXECUTE ${name}`
            : `EXECUTE ${name} USING ${this.literals(each.values)}`;
        if (!held.has(name)) {
          preparing.push(name);
          part = `PREPARE ${name} FROM ${this.connection.escape(each.sql)};\n${part}`;
          answers++;
        }
      }
      text = answerAt.length === 0 ? part : `${text};\n${part}`;
      answerAt.push(answers++);
    }
    const raw = await this.sendText(text, []).catch((error: unknown) => {
      // The connection lost what was prepared on it: prepared again when the transaction runs again.
      if (isUnknownPreparedStatement(error)) preparedOn.delete(this.connection);
      throw error;
    });
    for (const name of preparing) held.add(name);
    if (packet.includes(COMMIT)) this.finished = true;
    // One statement comes back as its own result, several as a list of them.
    if (answers === 1) return [raw];
    return answerAt.map((at) => (raw as unknown[])[at]);
  }

  /** The round trips of `all`: one, or one per statement with the opening ones joined to the next. */
  private packets(all: Statement[]): Statement[][] {
    if (all.length === 0) return [];
    if (!this.apart) return [all];
    const packets: Statement[][] = [];
    let opening: Statement[] = [];
    for (const each of all) {
      if (this.opening.has(each)) {
        opening.push(each);
        continue;
      }
      packets.push([...opening, each]);
      opening = [];
    }
    if (opening.length > 0) packets.push(opening);
    return packets;
  }

  /**
   * `sql` with its values, as mysql2 formats it; in a connection of the service's (`timezone: 'Z'`) each Date
   * given as the text mysql2 would write for it, which it then quotes as a plain string (see sql-literal.ts).
   */
  private format(sql: string, values: readonly unknown[]): string {
    if (!this.utc) return this.connection.format(sql, [...values]);
    return this.connection.format(
      sql,
      values.map((value) => utcDateText(value) ?? value),
    );
  }

  /** The values of an `EXECUTE ... USING`, each as its SQL literal (see sql-literal.ts). */
  private literals(values: readonly unknown[]): string {
    if (!this.utc) return values.map((value) => this.connection.escape(value)).join(', ');
    let text = sqlLiteral(values[0]);
    for (let index = 1; index < values.length; index++) text += `, ${sqlLiteral(values[index])}`;
    return text;
  }

  private preparedNames(): Set<string> {
    let names = preparedOn.get(this.connection);
    if (!names) preparedOn.set(this.connection, (names = new Set()));
    return names;
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
  options: BatchTransactionOptions = {},
): Promise<T> {
  const connection = await new Promise<PoolConnection>((resolve, reject) =>
    pool.getConnection((error, got) => (error ? reject(error) : resolve(got))),
  );
  const tx = new BatchTransaction(connection, options);
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
