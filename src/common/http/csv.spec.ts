import { CSV_BATCH, csvLine, csvLines } from './csv';

describe('csvLine', () => {
  it('quotes what needs it, doubles quotes, and leaves empty cells for null', () => {
    expect(csvLine(['plain', 'a,b', 'say "hi"', 'two\nlines', null, undefined, 42, true])).toBe(
      'plain,"a,b","say ""hi""","two\nlines",,,42,true\r\n',
    );
  });

  it('keeps text a spreadsheet would run as a formula as text', () => {
    expect(csvLine(['=HYPERLINK("x")', '+1', '-2', '@cmd', 'ok'])).toBe(
      `"'=HYPERLINK(""x"")",'+1,'-2,'@cmd,ok\r\n`,
    );
    expect(csvLine([-2])).toBe('-2\r\n');
  });
});

describe('csvLines', () => {
  it('reads batch after batch from the last row until a short one', async () => {
    const rows = Array.from({ length: CSV_BATCH + 3 }, (_, index) => ({ id: index }));
    const asked: (number | undefined)[] = [];
    const lines: string[] = [];
    for await (const line of csvLines(
      ['id'],
      async (after: { id: number } | undefined) => {
        asked.push(after?.id);
        const start = after === undefined ? 0 : after.id + 1;
        return rows.slice(start, start + CSV_BATCH);
      },
      (row) => [row.id],
    ))
      lines.push(line);
    expect(asked).toEqual([undefined, CSV_BATCH - 1]);
    expect(lines[0]).toBe('\uFEFFid\r\n');
    expect(lines).toHaveLength(CSV_BATCH + 4);
    expect(lines[lines.length - 1]).toBe(`${CSV_BATCH + 2}\r\n`);
  });
});
