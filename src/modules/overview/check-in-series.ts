import { formatInZone } from '../../common/time/business-time';
import { parseBound } from '../control-panel/visit-window';

export const HOUR_MS = 3_600_000;
export const HOURS = 24;
export const DAYS = 30;

/** One hour or one day of check-in answers. */
export interface CheckInBucket {
  start: string;
  recorded: number;
  eligible: number;
  refused: number;
  refusals: Record<string, number>;
}

export interface OutcomeRow {
  hour: Date;
  operation: string;
  outcome: string;
  answers: number;
}

/** The calendar days ending today in `timeZone`, oldest first: their date and first instant. */
export function lastDays(now: Date, timeZone: string, count: number): { date: string; start: Date }[] {
  const today = formatInZone(now, timeZone).slice(0, 10);
  const [year, month, day] = today.split('-').map(Number);
  const days: { date: string; start: Date }[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const date = new Date(Date.UTC(year, month - 1, day - back)).toISOString().slice(0, 10);
    days.push({ date, start: parseBound(date, timeZone) });
  }
  return days;
}

/** The first instant of the oldest hour and of the oldest day the series cover. */
export function seriesStart(now: Date, timeZone: string): { hours: Date; days: Date } {
  const currentHour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return {
    hours: new Date(currentHour - (HOURS - 1) * HOUR_MS),
    days: lastDays(now, timeZone, DAYS)[0].start,
  };
}

function emptyBucket(start: string): CheckInBucket {
  return { start, recorded: 0, eligible: 0, refused: 0, refusals: {} };
}

/** Adds one stored count: a success of validate is `eligible`, of register or confirm `recorded`. */
function add(bucket: CheckInBucket, row: Pick<OutcomeRow, 'operation' | 'outcome' | 'answers'>): void {
  if (row.outcome === 'success') {
    if (row.operation === 'validate') bucket.eligible += row.answers;
    else bucket.recorded += row.answers;
    return;
  }
  bucket.refused += row.answers;
  bucket.refusals[row.outcome] = (bucket.refusals[row.outcome] ?? 0) + row.answers;
}

/**
 * The hourly series of the last 24 hours (the current hour last), the daily series of the last 30 days in
 * `timeZone` (today last), and the 24 hours summed, from the hourly counts. An hour belongs to the day its
 * start falls in.
 */
export function checkInSeries(rows: OutcomeRow[], now: Date, timeZone: string) {
  const { hours: firstHour } = seriesStart(now, timeZone);
  const hourly: CheckInBucket[] = [];
  for (let i = 0; i < HOURS; i++)
    hourly.push(emptyBucket(formatInZone(new Date(firstHour.getTime() + i * HOUR_MS), timeZone)));
  const days = lastDays(now, timeZone, DAYS);
  const daily = days.map((day) => emptyBucket(formatInZone(day.start, timeZone)));
  const dayIndex = new Map(days.map((day, index) => [day.date, index]));
  const last24 = emptyBucket(hourly[0].start);
  for (const row of rows) {
    const hourIndex = Math.round((new Date(row.hour).getTime() - firstHour.getTime()) / HOUR_MS);
    if (hourIndex >= 0 && hourIndex < HOURS) {
      add(hourly[hourIndex], row);
      add(last24, row);
    }
    const index = dayIndex.get(formatInZone(new Date(row.hour), timeZone).slice(0, 10));
    if (index !== undefined) add(daily[index], row);
  }
  return { hourly, daily, last_24_hours: last24 };
}
