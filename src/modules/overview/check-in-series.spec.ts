import { checkInSeries, lastDays } from './check-in-series';

const SAO_PAULO = 'America/Sao_Paulo';

describe('lastDays', () => {
  it('counts calendar days in the business time zone, today last', () => {
    // 01:30 UTC on the 2nd is still the 1st in São Paulo (-03:00).
    const days = lastDays(new Date('2026-12-02T01:30:00Z'), SAO_PAULO, 3);
    expect(days.map((day) => day.date)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01']);
    expect(days[2].start.toISOString()).toBe('2026-12-01T03:00:00.000Z');
  });
});

describe('checkInSeries', () => {
  const now = new Date('2026-11-22T15:20:00Z');
  const hour = (iso: string) => new Date(iso);

  it('puts each count in its hour and its day, and sums the last 24 hours', () => {
    const series = checkInSeries(
      [
        { hour: hour('2026-11-22T15:00:00Z'), operation: 'register', outcome: 'success', answers: 4 },
        { hour: hour('2026-11-22T15:00:00Z'), operation: 'confirm', outcome: 'success', answers: 1 },
        { hour: hour('2026-11-22T15:00:00Z'), operation: 'validate', outcome: 'success', answers: 6 },
        { hour: hour('2026-11-22T14:00:00Z'), operation: 'validate', outcome: 'already_used', answers: 2 },
        {
          hour: hour('2026-11-22T14:00:00Z'),
          operation: 'register',
          outcome: 'usage_limit_reached',
          answers: 1,
        },
        // Yesterday's afternoon: in the daily series only.
        { hour: hour('2026-11-21T12:00:00Z'), operation: 'register', outcome: 'success', answers: 7 },
        // 02:00 UTC on the 22nd is 23:00 on the 21st in São Paulo.
        { hour: hour('2026-11-22T02:00:00Z'), operation: 'register', outcome: 'success', answers: 3 },
      ],
      now,
      SAO_PAULO,
    );
    expect(series.hourly).toHaveLength(24);
    expect(series.hourly[23]).toEqual({
      start: '2026-11-22T12:00:00.000-03:00',
      recorded: 5,
      eligible: 6,
      refused: 0,
      refusals: {},
    });
    expect(series.hourly[22]).toMatchObject({
      refused: 3,
      refusals: { already_used: 2, usage_limit_reached: 1 },
    });
    expect(series.last_24_hours).toMatchObject({ recorded: 8, eligible: 6, refused: 3 });
    expect(series.daily).toHaveLength(30);
    expect(series.daily[29]).toMatchObject({
      start: '2026-11-22T00:00:00.000-03:00',
      recorded: 5,
      refused: 3,
    });
    expect(series.daily[28]).toMatchObject({ start: '2026-11-21T00:00:00.000-03:00', recorded: 10 });
  });

  it('answers empty buckets when nothing was counted', () => {
    const series = checkInSeries([], now, SAO_PAULO);
    expect(series.hourly.every((bucket) => bucket.recorded === 0 && bucket.refused === 0)).toBe(true);
    expect(series.daily[0].start).toBe('2026-10-24T00:00:00.000-03:00');
  });
});
