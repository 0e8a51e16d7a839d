import { escape, format, PoolConnection, SqlValue } from 'mysql2';
import { BatchTransaction, prepared, SessionVariable, statement } from './statement-batch';
import { sqlLiteral } from './sql-literal';

/** A connection that records each text it is sent, and answers each statement of it with `{ sql }`. */
function recordingConnection(): { connection: PoolConnection; sent: string[] } {
  const sent: string[] = [];
  const connection = {
    format: (sql: string, values: unknown[]) => {
      let next = 0;
      return sql.replace(/\?/g, () => JSON.stringify(values[next++]));
    },
    escape: (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value)),
    query({ sql }: { sql: string }, callback: (error: Error | null, result: unknown) => void) {
      sent.push(sql);
      const answers = sql.split(';\n').map((each) => ({ sql: each }));
      setImmediate(() => callback(null, answers.length === 1 ? answers[0] : answers));
    },
  } as unknown as PoolConnection;
  return { connection, sent };
}

const select = (n: number) => statement(`SELECT ${n}`, [], (result) => (result as { sql: string }).sql);

describe('BatchTransaction', () => {
  it('sends each round trip as one text: the opening statements, the enqueued ones, then those asked for', async () => {
    const { connection, sent } = recordingConnection();
    const tx = new BatchTransaction(connection, { isolation: 'READ COMMITTED' });
    tx.enqueue(select(1));
    expect(await tx.run(select(2), select(3))).toEqual(['SELECT 2', 'SELECT 3']);
    await tx.commit(select(4));
    expect(sent).toEqual([
      'SET TRANSACTION ISOLATION LEVEL READ COMMITTED;\nSTART TRANSACTION;\nSELECT 1;\nSELECT 2;\nSELECT 3',
      'SELECT 4;\nCOMMIT',
    ]);
    expect(tx.ended).toBe(true);
  });

  it('one statement per round trip sends each alone, the opening ones with the first, COMMIT last and alone', async () => {
    const { connection, sent } = recordingConnection();
    const tx = new BatchTransaction(connection, { oneStatementPerRoundTrip: true });
    tx.enqueue(select(1));
    expect(await tx.run(select(2), select(3))).toEqual(['SELECT 2', 'SELECT 3']);
    expect(await tx.commit(select(4), select(5))).toEqual(['SELECT 4', 'SELECT 5']);
    expect(sent).toEqual([
      'START TRANSACTION;\nSELECT 1',
      'SELECT 2',
      'SELECT 3',
      'SELECT 4',
      'SELECT 5',
      'COMMIT',
    ]);
    expect(tx.ended).toBe(true);
  });

  it('one statement per round trip: a read that ends the transaction stops every statement after it', async () => {
    const { connection, sent } = recordingConnection();
    const tx = new BatchTransaction(connection, { oneStatementPerRoundTrip: true });
    const refused = new Error('refused by the read');
    tx.enqueue(
      statement('SELECT 1', [], () => {
        throw refused;
      }),
    );
    await expect(tx.commit(select(2))).rejects.toBe(refused);
    expect(sent).toEqual(['START TRANSACTION;\nSELECT 1']);
    expect(tx.ended).toBe(false);
    await tx.rollback();
    expect(sent).toEqual(['START TRANSACTION;\nSELECT 1', 'ROLLBACK']);
  });

  it('a cluster-only statement is sent on a cluster and left out on one server, reading as undefined', async () => {
    const touch = { ...select(9), clusterOnly: true };
    const single = recordingConnection();
    const alone = new BatchTransaction(single.connection);
    expect(await alone.run(select(1), touch, select(2))).toEqual(['SELECT 1', undefined, 'SELECT 2']);
    expect(await alone.commit(touch)).toEqual([undefined]);
    expect(single.sent).toEqual(['START TRANSACTION;\nSELECT 1;\nSELECT 2', 'COMMIT']);

    const cluster = recordingConnection();
    const apart = new BatchTransaction(cluster.connection, { oneStatementPerRoundTrip: true });
    expect(await apart.commit(select(1), touch)).toEqual(['SELECT 1', 'SELECT 9']);
    expect(cluster.sent).toEqual(['START TRANSACTION;\nSELECT 1', 'SELECT 9', 'COMMIT']);
  });

  it('a prepared statement is prepared once per connection, in the round trip that first sends it', async () => {
    const facts = () =>
      prepared('SELECT ? AS a, ? AS b', [1, 'x'], (result) => (result as { sql: string }).sql);
    const { connection, sent } = recordingConnection();
    const first = new BatchTransaction(connection);
    expect(await first.commit(select(1), facts())).toEqual([
      'SELECT 1',
      expect.stringMatching(/^EXECUTE batch_\d+ USING 1, 'x'$/),
    ]);
    const second = new BatchTransaction(connection);
    await second.commit(facts());
    const [name] = /batch_\d+/.exec(sent[0]) ?? [];
    expect(sent).toEqual([
      `START TRANSACTION;\nSELECT 1;\nPREPARE ${name} FROM 'SELECT ? AS a, ? AS b';\nEXECUTE ${name} USING 1, 'x';\nCOMMIT`,
      `START TRANSACTION;\nEXECUTE ${name} USING 1, 'x';\nCOMMIT`,
    ]);
    // Another connection prepares it for itself.
    const other = recordingConnection();
    await new BatchTransaction(other.connection).commit(facts());
    expect(other.sent[0]).toContain(`PREPARE ${name} FROM`);
    // On Galera each statement travels alone: as text.
    const cluster = recordingConnection();
    await new BatchTransaction(cluster.connection, { oneStatementPerRoundTrip: true }).commit(facts());
    expect(cluster.sent).toEqual(['START TRANSACTION;\nSELECT 1 AS a, "x" AS b', 'COMMIT']);
  });

  it('a connection that lost its prepared statements (1243) prepares them again in its next transaction', async () => {
    const facts = () => prepared('SELECT ? AS c', [2]);
    const { connection, sent } = recordingConnection();
    await new BatchTransaction(connection).commit(facts());
    const query = connection.query.bind(connection);
    connection.query = ((options: { sql: string }, callback: (error: Error | null) => void) =>
      setImmediate(() =>
        callback(
          Object.assign(new Error('Unknown prepared statement handler'), {
            code: 'ER_UNKNOWN_STMT_HANDLER',
            errno: 1243,
          }),
        ),
      )) as unknown as typeof connection.query;
    await expect(new BatchTransaction(connection).commit(facts())).rejects.toThrow(
      'Unknown prepared statement',
    );
    connection.query = query;
    await new BatchTransaction(connection).commit(facts());
    expect(sent.filter((text) => text.includes('PREPARE '))).toHaveLength(2);
  });

  it("writes values as mysql2 would in the service's connections (timezone 'Z'), by its own shorter path (strings as literals that read back the same)", async () => {
    /** A connection that formats with mysql2 itself; `utc` gives it the service's `timezone: 'Z'`. */
    const mysql2Connection = (utc: boolean) => {
      const recorded = recordingConnection();
      Object.assign(recorded.connection, {
        ...(utc && { config: { timezone: 'Z' } }),
        format: (sql: string, values: SqlValue[]) => format(sql, values, false, 'Z'),
        escape: (value: SqlValue) => escape(value, false, 'Z'),
      });
      return recorded;
    };
    const values = [
      new Date('2026-11-30T09:07:21.123Z'),
      '{"name":"Ana O\'Neil \\"Nina\\"","note":"a\\nb"}',
      'raw\ncontrol',
      null,
      42,
      true,
      new SessionVariable('visit_id'),
    ];
    const statements = () => [
      prepared(`SELECT ${values.map(() => '?').join(', ')}`, values),
      statement(`SELECT ${values.map(() => '?').join(', ')}`, values),
    ];
    const [shorter, mysql2Own] = [mysql2Connection(true), mysql2Connection(false)];
    await new BatchTransaction(shorter.connection).commit(...statements());
    await new BatchTransaction(mysql2Own.connection).commit(...statements());
    // The same text but for the strings of the EXECUTE, written by sqlLiteral (its spec: they read back the same).
    const executeAsShorter = (line: string) =>
      values
        .filter((value): value is string => typeof value === 'string')
        .reduce((text, value) => text.replace(escape(value), sqlLiteral(value)), line);
    expect(shorter.sent).toEqual(
      mysql2Own.sent.map((text) =>
        text
          .split('\n')
          .map((line) => (line.startsWith('EXECUTE ') ? executeAsShorter(line) : line))
          .join('\n'),
      ),
    );
    expect(shorter.sent[0]).toContain("'2026-11-30 09:07:21.123'");
    expect(shorter.sent[0]).toContain(sqlLiteral(values[1]));
  });
});
