/** Building an Intl.DateTimeFormat costs far more than using one, so each zone gets one for the process. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const HOUR_MS = 3_600_000;
/** Offsets by zone and UTC hour, for hours with one offset throughout; every event and answer formats times. */
const hourOffsets = new Map<string, number>();
const MAX_CACHED_HOURS = 1000;

/** Offset in minutes of `timeZone` from UTC at `date` (e.g. -180 for São Paulo). */
export function timezoneOffsetMinutes(date: Date, timeZone: string): number {
  const hour = Math.floor(date.getTime() / HOUR_MS) * HOUR_MS;
  const key = `${timeZone} ${hour}`;
  const known = hourOffsets.get(key);
  if (known !== undefined) return known;
  const offset = computeOffsetMinutes(date, timeZone);
  // Kept only when the hour starts and ends with this offset: a change of offset inside it is never cached.
  if (
    computeOffsetMinutes(new Date(hour), timeZone) === offset &&
    computeOffsetMinutes(new Date(hour + HOUR_MS - 1), timeZone) === offset
  ) {
    if (hourOffsets.size >= MAX_CACHED_HOURS) hourOffsets.clear();
    hourOffsets.set(key, offset);
  }
  return offset;
}

function computeOffsetMinutes(date: Date, timeZone: string): number {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) fields[part.type] = Number(part.value);
  const asUtc = Date.UTC(
    fields.year,
    fields.month - 1,
    fields.day,
    fields.hour,
    fields.minute,
    fields.second,
  );
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
}

/** The first instant of the calendar month that contains `date`, in `timeZone`, computed from scratch. */
function computeStartOfMonth(date: Date, timeZone: string, monthsAhead = 0): Date {
  const offset = timezoneOffsetMinutes(date, timeZone);
  const local = new Date(date.getTime() + offset * 60000);
  const localMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + monthsAhead, 1);
  const guess = new Date(localMidnight - offset * 60000);
  // The offset at the start of the month may differ from now's (daylight saving); correct once.
  const correction = timezoneOffsetMinutes(guess, timeZone);
  return new Date(localMidnight - correction * 60000);
}

/** The month last asked for, per zone: every check-in asks, and nearly all fall in the same month. */
const currentMonths = new Map<string, { start: number; end: number }>();

/** The first instant of the calendar month that contains `date`, in `timeZone`. */
export function startOfMonth(date: Date, timeZone: string): Date {
  const at = date.getTime();
  const known = currentMonths.get(timeZone);
  if (known && at >= known.start && at < known.end) return new Date(known.start);
  const start = computeStartOfMonth(date, timeZone);
  const end = computeStartOfMonth(date, timeZone, 1);
  currentMonths.set(timeZone, { start: start.getTime(), end: end.getTime() });
  return start;
}

/** ISO 8601 with the zone's offset, e.g. `2026-11-22T07:02:11.412-03:00`. */
export function formatInZone(date: Date, timeZone: string): string {
  const offset = timezoneOffsetMinutes(date, timeZone);
  const local = new Date(date.getTime() + offset * 60000).toISOString().slice(0, 23);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The first instant of the calendar day that contains `date`, in `timeZone`. */
export function startOfDay(date: Date, timeZone: string): Date {
  const offset = timezoneOffsetMinutes(date, timeZone);
  const local = new Date(date.getTime() + offset * 60000);
  const localMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  // The offset at midnight may differ from now's (daylight saving); correct once.
  const correction = timezoneOffsetMinutes(new Date(localMidnight - offset * 60000), timeZone);
  return new Date(localMidnight - correction * 60000);
}
