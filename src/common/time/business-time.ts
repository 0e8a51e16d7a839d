/** Offset in minutes of `timeZone` from UTC at `date` (e.g. -180 for São Paulo). */
export function timezoneOffsetMinutes(date: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
}

/** The first instant of the calendar month that contains `date`, in `timeZone`. */
export function startOfMonth(date: Date, timeZone: string): Date {
  const offset = timezoneOffsetMinutes(date, timeZone);
  const local = new Date(date.getTime() + offset * 60000);
  const localMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
  const guess = new Date(localMidnight - offset * 60000);
  // The offset at the start of the month may differ from now's (daylight saving); correct once.
  const correction = timezoneOffsetMinutes(guess, timeZone);
  return new Date(localMidnight - correction * 60000);
}

/** ISO 8601 with the zone's offset, e.g. `2026-11-22T07:02:11.412-03:00`. */
export function formatInZone(date: Date, timeZone: string): string {
  const offset = timezoneOffsetMinutes(date, timeZone);
  const local = new Date(date.getTime() + offset * 60000).toISOString().slice(0, 23);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
