import { escape, SqlValue } from 'mysql2';

/** Any character mysql2 escapes in a string literal, and the control characters among them. */
// eslint-disable-next-line no-control-regex -- the very characters mysql2 escapes
const ESCAPED = /[\0\b\t\n\r\x1a"'\\]/;
// eslint-disable-next-line no-control-regex -- the very characters mysql2 escapes
const CONTROL = /[\0\b\t\n\r\x1a]/;
const QUOTES_AND_BACKSLASH = /["'\\]/g;

/** The instants whose ISO text has a four-digit year, as `YYYY-MM-DD HH:MM:SS.mmm` needs. */
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The SQL literal mysql2 writes for `value` in a connection whose `timezone` is `'Z'` (the service's, see
 * data-source.ts), by a shorter path for the types of the hot paths' values: a string by one native replace
 * instead of a loop over its characters (a JSON event body escapes a quote in every field), a Date from its ISO
 * text. The same text, character for character (sql-literal.spec.ts compares them); anything else, and any string
 * with a control character, is left to mysql2.
 */
export function sqlLiteral(value: unknown): string {
  switch (typeof value) {
    case 'string':
      if (!ESCAPED.test(value)) return `'${value}'`;
      if (!CONTROL.test(value)) return `'${value.replace(QUOTES_AND_BACKSLASH, '\\$&')}'`;
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
  const iso = value.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}
