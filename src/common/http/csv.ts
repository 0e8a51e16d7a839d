import { applyDecorators, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { Readable } from 'node:stream';

export type CsvCell = string | number | boolean | null | undefined;

/** Rows read per query while a CSV export streams. */
export const CSV_BATCH = 1000;
/** A byte-order mark, so that spreadsheets read the file as UTF-8 (names with accents). */
const BOM = '\uFEFF';
/** Cells a spreadsheet would run as a formula (CSV injection): kept as text with a leading apostrophe. */
const FORMULA = /^[=+\-@\t\r]/;

/** One RFC 4180 line: quoted when needed, quotes doubled, formula-like text defused, CRLF ended. */
export function csvLine(cells: CsvCell[]): string {
  return `${cells
    .map((cell) => {
      if (cell === null || cell === undefined) return '';
      let text = String(cell);
      if (typeof cell === 'string' && FORMULA.test(text)) text = `'${text}`;
      return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(',')}\r\n`;
}

/**
 * Reads `batch` after `batch` (each call gets the last row of the previous one) until a short batch, and
 * yields the header and one line per row.
 */
export async function* csvLines<R>(
  header: string[],
  batch: (after: R | undefined) => Promise<R[]>,
  cells: (row: R) => CsvCell[],
): AsyncGenerator<string> {
  yield BOM + csvLine(header);
  let after: R | undefined;
  for (;;) {
    const rows = await batch(after);
    for (const row of rows) yield csvLine(cells(row));
    if (rows.length < CSV_BATCH) return;
    after = rows[rows.length - 1];
  }
}

/** The answer of an export route: the lines streamed as they are read, as a file to save. */
export function csvFile(name: string, lines: AsyncIterable<string>): StreamableFile {
  return new StreamableFile(Readable.from(lines), {
    type: 'text/csv; charset=utf-8',
    disposition: `attachment; filename="${name}"`,
  });
}

/** Swagger for an export route: text/csv with the header line and one example line. */
export const ApiCsvResponse = (description: string, example: string) =>
  applyDecorators(
    ApiProduces('text/csv'),
    ApiOkResponse({
      description,
      content: { 'text/csv': { schema: { type: 'string' }, example } },
    }),
  );
