import { escape, SqlValue } from 'mysql2';

/** Any character mysql2 escapes in a string literal. */
// eslint-disable-next-line no-control-regex -- the very characters mysql2 escapes
const ESCAPED = /[\0\b\t\n\r\x1a"'\\]/;

/** The instants whose text has a four-digit year, as `YYYY-MM-DD HH:MM:SS.mmm` needs. */
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/** The last day written (`YYYY-MM-DD `): the instants of one process's statements mostly share it. */
let lastDay = Number.NaN;
let lastDayText = '';

/**
 * The SQL literal mysql2 writes for `value` in a connection whose `timezone` is `'Z'` (the service's, see
 * data-source.ts), by a shorter path for the values of the hot paths: a string without a character to escape
 * quoted as it is, a Date from its time in milliseconds (the day's text kept from the last call). The same text,
 * character for character (sql-literal.spec.ts compares them); anything else is left to mysql2.
 */
export function sqlLiteral(value: unknown): string {
  switch (typeof value) {
    case 'string':
      if (!ESCAPED.test(value)) return `'${value}'`;
      break;
    case 'number':
    case 'bigint':
      return `${value}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'NULL';
    case 'object': {
      if (value === null) return 'NULL';
      const text = utcDateText(value);
      if (text !== undefined) return `'${text}'`;
      break;
    }
  }
  return escape(value as SqlValue, false, 'Z');
}

/**
 * A Date as mysql2 writes it with `timezone: 'Z'`, unquoted (`2026-11-30 09:07:21.123`), so that mysql2's
 * `format` quotes it as a plain string; undefined for anything else, and for a Date it writes otherwise (invalid,
 * or outside years 0 to 9999).
 */
export function utcDateText(value: unknown): string | undefined {
  if (!(value instanceof Date)) return undefined;
  const time = value.getTime();
  if (!(time >= FIRST_INSTANT && time <= LAST_INSTANT)) return undefined;
  const day = Math.floor(time / DAY_MS);
  if (day !== lastDay) {
    lastDayText = `${value.toISOString().slice(0, 10)} `;
    lastDay = day;
  }
  let rest = time - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${lastDayText}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}`;
}
