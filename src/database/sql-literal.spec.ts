import { escape, format, SqlValue } from 'mysql2';
import { sqlLiteral, utcDateText } from './sql-literal';

/** What mysql2 itself writes, in the service's connections (`timezone: 'Z'`). */
const mysql2Literal = (value: unknown) => escape(value as SqlValue, false, 'Z');

/** The string MySQL reads from a quoted literal, by its escape sequences (the manual's "String Literals"). */
function readLiteral(literal: string): string {
  expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true);
  const sequences: Record<string, string> = { 0: '\0', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\x1a' };
  let text = '';
  for (let at = 1; at < literal.length - 1; at++) {
    const character = literal[at];
    if (character === "'") {
      // Only as '' inside a literal: a lone one would end it.
      expect(literal[at + 1]).toBe("'");
      text += "'";
      at++;
    } else if (character === '\\') {
      const next = literal[++at];
      text += sequences[next] ?? next;
    } else text += character;
  }
  return text;
}

describe('sqlLiteral', () => {
  const strings = [
    '',
    'plain text',
    'Conceição D’Ávila',
    "O'Brien",
    'a "quoted" word',
    'back\\slash and \\" both',
    JSON.stringify({
      id: 'evt_1',
      user: { name: 'Ana O\'Neil "Nina"', note: 'line\nbreak\ttab\u0000nul\u001a' },
    }),
    'raw control: \n',
    'raw nul: \u0000',
    'tab\tand "quote"',
    'ctrl-z \u001a',
    'backspace \b',
    '\r\n',
    'emoji 🏋️ and lone surrogate \ud800',
    "'; DROP TABLE visits; --",
    '\\',
    "\\'",
  ];

  it.each(strings)('writes the string %j as a literal MySQL reads back as it, as mysql2’s', (value) => {
    const literal = sqlLiteral(value);
    expect(readLiteral(literal)).toBe(value);
    expect(readLiteral(mysql2Literal(value))).toBe(value);
    // Nothing raw that the server would read otherwise, and no control character mysql2 escapes.
    // eslint-disable-next-line no-control-regex -- the characters escaped
    expect(literal.slice(1, -1).replace(/\\[\s\S]/g, '')).not.toMatch(/[\0\b\t\n\r\x1a'\\]/);
  });

  it('writes a string with nothing to escape, double quotes included, quoted as it is', () => {
    const body = JSON.stringify({ id: 'evt_1', user: { name: 'Ana Souza', email: null } });
    expect(sqlLiteral(body)).toBe(`'${body}'`);
    expect(sqlLiteral('plain text')).toBe(mysql2Literal('plain text'));
  });

  const dates = [
    new Date('2026-11-30T09:07:21.123Z'),
    new Date('2026-01-01T00:00:00.000Z'),
    new Date('1970-01-01T00:00:00.000Z'),
    new Date('0999-03-04T05:06:07.008Z'),
    new Date('0000-01-01T00:00:00.000Z'),
    new Date('9999-12-31T23:59:59.999Z'),
    new Date('+010000-01-01T00:00:00.000Z'),
    new Date('-000001-12-31T23:59:59.999Z'),
    new Date(Number.NaN),
  ];

  it.each(dates.map((date) => [date.getTime(), date]))('writes the date %s as mysql2 does', (_time, date) => {
    expect(sqlLiteral(date)).toBe(mysql2Literal(date));
  });

  it('writes any instant of years 0 to 9999 as mysql2 does, the same day again or another', () => {
    const first = Date.parse('0000-01-01T00:00:00.000Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let n = 0; n < 5000; n++) {
      const time =
        n % 2 === 0 ? first + Math.floor(random() * (last - first)) : Date.now() + Math.floor(random() * 1e6);
      const date = new Date(time);
      expect(sqlLiteral(date)).toBe(mysql2Literal(date));
    }
  });

  it('writes numbers, booleans, null and undefined as mysql2 does, and leaves the rest to it', () => {
    const others = [
      0,
      -1,
      1.5,
      1e21,
      Number.NaN,
      Infinity,
      12n,
      true,
      false,
      null,
      undefined,
      [1, 'a'],
      Buffer.from('hi'),
    ];
    for (const value of others) expect(sqlLiteral(value)).toBe(mysql2Literal(value));
    expect(sqlLiteral({ toSqlString: () => '@place' })).toBe('@place');
  });

  it('gives format a Date as the text it would write, to quote as a plain string', () => {
    const at = new Date('2026-11-30T09:07:21.123Z');
    expect(format('SELECT ?', [utcDateText(at)], false, 'Z')).toBe(format('SELECT ?', [at], false, 'Z'));
    expect(utcDateText('2026-11-30')).toBeUndefined();
    expect(utcDateText(new Date(Number.NaN))).toBeUndefined();
  });
});
