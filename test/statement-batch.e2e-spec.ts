import { QueryFailedError } from 'typeorm';
import { Transactions } from '../src/database/transactions';
import { prepared, statement, WriteResult } from '../src/database/statement-batch';
import { createTestApp, TestApp } from './support/test-app';

/**
 * BatchTransaction, on the pool the check-in paths use: statements sent together, read in order, and a
 * transaction that ends rolled back whatever way it fails.
 */
describe('batch transactions (e2e)', () => {
  let t: TestApp;
  let transactions: Transactions;
  const rows = async () =>
    (await t.dataSource.query('SELECT id, note, parent_id AS parentId FROM batch_probe ORDER BY id')) as {
      id: number;
      note: string;
      parentId: number | null;
    }[];
  const insert = (note: string) =>
    statement('INSERT INTO batch_probe (note) VALUES (?)', [note], (result) =>
      String((result as WriteResult).insertId),
    );
  const insertChild = (note: string) =>
    statement('INSERT INTO batch_probe (note, parent_id) VALUES (?, LAST_INSERT_ID())', [note]);
  const count = statement('SELECT COUNT(*) AS n FROM batch_probe', [], (result) =>
    Number((result as { n: string }[])[0].n),
  );

  beforeAll(async () => {
    t = await createTestApp();
    transactions = t.app.get(Transactions);
    await t.dataSource.query(
      `CREATE TABLE IF NOT EXISTS batch_probe (id INT PRIMARY KEY AUTO_INCREMENT, note VARCHAR(200) NOT NULL,
         parent_id INT NULL, UNIQUE KEY UQ_batch_probe_note (note)) ENGINE=InnoDB`,
    );
  });
  beforeEach(() => t.dataSource.query('DELETE FROM batch_probe'));
  afterAll(async () => {
    await t.dataSource.query('DROP TABLE IF EXISTS batch_probe');
    await t.close();
  });

  it('answers each statement of a round trip in order, and an insert’s id reaches the next statement', async () => {
    const answered = await transactions.batch(async (tx) => {
      const [before, parentId] = await tx.run(count, insert('parent'));
      await tx.commit(insertChild('child'));
      return { before, parentId };
    });
    const [parent, child] = await rows();
    expect(answered).toEqual({ before: 0, parentId: String(parent.id) });
    expect(child).toMatchObject({ note: 'child', parentId: parent.id });
  });

  it('sends an enqueued statement first in the next round trip, and its read can end the transaction', async () => {
    const refused = new Error('refused by the read');
    await expect(
      transactions.batch(async (tx) => {
        tx.enqueue(insert('queued'));
        tx.enqueue(
          statement('SELECT COUNT(*) AS n FROM batch_probe', [], () => {
            throw refused;
          }),
        );
        await tx.run(insert('not reached by the work'));
        await tx.commit();
      }),
    ).rejects.toBe(refused);
    // Both inserts ran before the read threw; the rollback took them back.
    expect(await rows()).toEqual([]);
  });

  it('rolls the whole transaction back when a statement fails, and runs none after it', async () => {
    await t.dataSource.query("INSERT INTO batch_probe (note) VALUES ('taken')");
    const error = await transactions
      .batch(async (tx) => {
        await tx.run(insert('first'));
        await tx.commit(insert('taken'), insert('after the failure'));
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as QueryFailedError).driverError).toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect((await rows()).map((row) => row.note)).toEqual(['taken']);
    // The connection went back to the pool usable: the next transaction commits.
    await transactions.batch((tx) => tx.commit(insert('next')));
    expect((await rows()).map((row) => row.note)).toEqual(['taken', 'next']);
  });

  it('commits what the work left open, and rolls back what it threw in', async () => {
    await transactions.batch(async (tx) => {
      await tx.run(insert('kept'));
    });
    await expect(
      transactions.batch(async (tx) => {
        await tx.run(insert('dropped'));
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect((await rows()).map((row) => row.note)).toEqual(['kept']);
  });

  it('sends values as values: a statement hidden in one is stored, not run', async () => {
    const hostile = "x'); DELETE FROM batch_probe; INSERT INTO batch_probe (note) VALUES ('y";
    await transactions.batch((tx) => tx.commit(insert('before'), insert(hostile)));
    expect((await rows()).map((row) => row.note)).toEqual(['before', hostile]);
  });

  it('sends a prepared statement’s strings as the server reads them back, whatever characters they hold', async () => {
    const strings = [
      '',
      'a "quoted" word',
      JSON.stringify({
        id: 'evt_1',
        user: { name: 'Ana O\'Neil "Nina"', note: 'line\nbreak\ttab\u0000nul\u001a' },
      }),
      "O'Brien and O''Hara",
      'back\\slash, \\" and \\\' together',
      'raw control: \n \r \t \b \u001a \u0000 end',
      'Conceição D’Ávila 🏋️',
      '\\',
      "'; DROP TABLE batch_probe; --",
      '%_ wildcards \\% \\_',
    ];
    const read = await transactions.batch((tx) =>
      tx.run(
        ...strings.map((value) =>
          prepared('SELECT ? AS value', [value], (result) => (result as { value: string }[])[0].value),
        ),
      ),
    );
    expect(read).toEqual(strings);
  });

  it('runs at the isolation level asked for: READ COMMITTED sees a commit made meanwhile, the default does not', async () => {
    const seen = async (isolation?: 'READ COMMITTED') =>
      transactions.batch(
        async (tx) => {
          const [before] = await tx.run(count);
          await t.dataSource.query('INSERT INTO batch_probe (note) VALUES (?)', [`meanwhile ${isolation}`]);
          const [after] = await tx.run(count);
          return after - before;
        },
        { isolation },
      );
    expect(await seen('READ COMMITTED')).toBe(1);
    expect(await seen()).toBe(0);
  });

  it('refuses statements once the transaction has committed', async () => {
    await expect(
      transactions.batch(async (tx) => {
        await tx.commit(insert('committed'));
        await tx.run(count);
      }),
    ).rejects.toThrow('already ended');
    expect((await rows()).map((row) => row.note)).toEqual(['committed']);
  });
});
