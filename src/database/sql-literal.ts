import { escape, SqlValue } from 'mysql2';

/**
 * The characters a string literal escapes: the two MySQL would read otherwise (the quote that ends it, the
 * backslash that begins an escape), and the control characters mysql2 escapes too (NUL, backspace, tab, newline,
 * return, Ctrl-Z), so that none reaches the server raw. Not the double quote, which mysql2 escapes as `\"`: inside
 * single quotes it is a plain character, and a JSON body (an event's, on every register at a subscribed gym) has
 * dozens of them. The literal reads back as the same string either way (sql-literal.spec.ts, and
 * test/statement-batch.e2e-spec.ts through the server).
 */
// eslint-disable-next-line no-control-regex -- the very characters to escape
const ESCAPED = /[\0\b\t\n\r\x1a'\\]/;
const EACH_ESCAPED = new RegExp(ESCAPED.source, 'g');
const ESCAPES: Record<string, string> = {
  '\0': '\\0',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\x1a': '\\Z',
  "'": "\\'",
  '\\': '\\\\',
};
const escapeOne = (character: string) => ESCAPES[character];

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
 * The SQL literal of `value` in a connection whose `timezone` is `'Z'` (the service's, see data-source.ts), by a
 * shorter path than mysql2's for the values of the hot paths: a string in one pass (see ESCAPED), a Date from its
 * time in milliseconds (the day's text kept from the last call). Numbers, booleans, NULL and Dates as mysql2
 * writes them, character for character (sql-literal.spec.ts compares them); anything else is left to mysql2.
 */
export function sqlLiteral(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return ESCAPED.test(value) ? `'${value.replace(EACH_ESCAPED, escapeOne)}'` : `'${value}'`;
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
