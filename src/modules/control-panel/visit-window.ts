import { timezoneOffsetMinutes } from '../../common/time/business-time';

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export class InvalidInstantError extends Error {}

/** The instant at which a wall-clock time (given as epoch ms read as UTC) occurs in `timeZone`. */
function wallTimeToInstant(wall: number, timeZone: string): Date {
  const guess = new Date(wall - timezoneOffsetMinutes(new Date(wall), timeZone) * 60000);
  // The offset at the guess may differ (daylight saving); correct once.
  return new Date(wall - timezoneOffsetMinutes(guess, timeZone) * 60000);
}

/**
 * Parses a `from`/`to` bound: `YYYY-MM-DD`, or a date and time with an optional offset (none = `timeZone`).
 * A date alone is the start of that day; with `endOfDay` the start of the next day, so that `to=2026-11-30`
 * includes the 30th.
 */
export function parseBound(value: string, timeZone: string, endOfDay = false): Date {
  const match = INSTANT.exec(value);
  if (!match) throw new InvalidInstantError();
  const [, year, month, day, hour, minute, second, millis, offset] = match;
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  const calendar = new Date(Date.UTC(y, mo - 1, d));
  if (calendar.getUTCFullYear() !== y || calendar.getUTCMonth() !== mo - 1 || calendar.getUTCDate() !== d)
    throw new InvalidInstantError();
  if (hour === undefined) return wallTimeToInstant(Date.UTC(y, mo - 1, endOfDay ? d + 1 : d), timeZone);
  const [h, mi, s] = [Number(hour), Number(minute), Number(second ?? 0)];
  if (h > 23 || mi > 59 || s > 59) throw new InvalidInstantError();
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, Number((millis ?? '0').padEnd(3, '0')));
  if (offset === undefined) return wallTimeToInstant(wall, timeZone);
  if (offset === 'Z') return new Date(wall);
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return new Date(wall - sign * minutes * 60000);
}
