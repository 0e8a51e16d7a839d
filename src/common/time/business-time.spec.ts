import { formatInZone, startOfMonth, timezoneOffsetMinutes } from './business-time';

const SP = 'America/Sao_Paulo';

describe('business time', () => {
  it('knows São Paulo is UTC-3', () => {
    expect(timezoneOffsetMinutes(new Date('2026-11-22T10:00:00Z'), SP)).toBe(-180);
  });

  it('puts 23:59 on the last day of a month in São Paulo in that month, though UTC is already the next', () => {
    const lateOnNov30 = new Date('2026-12-01T02:59:00Z'); // 2026-11-30 23:59 in São Paulo
    expect(startOfMonth(lateOnNov30, SP).toISOString()).toBe('2026-11-01T03:00:00.000Z');
    const earlyOnDec1 = new Date('2026-12-01T03:00:00Z'); // 2026-12-01 00:00 in São Paulo
    expect(startOfMonth(earlyOnDec1, SP).toISOString()).toBe('2026-12-01T03:00:00.000Z');
  });

  it('keeps the right month when asked back and forth across a boundary', () => {
    const sequence: [string, string][] = [
      ['2026-11-15T12:00:00Z', '2026-11-01T03:00:00.000Z'],
      ['2026-12-01T02:59:59.999Z', '2026-11-01T03:00:00.000Z'],
      ['2026-12-01T03:00:00Z', '2026-12-01T03:00:00.000Z'],
      ['2026-11-30T12:00:00Z', '2026-11-01T03:00:00.000Z'],
      ['2027-01-01T02:59:00Z', '2026-12-01T03:00:00.000Z'],
    ];
    for (const [at, start] of sequence) expect(startOfMonth(new Date(at), SP).toISOString()).toBe(start);
  });

  it('ends a month at the right instant when daylight saving changes within it', () => {
    const NY = 'America/New_York';
    expect(startOfMonth(new Date('2026-03-20T12:00:00Z'), NY).toISOString()).toBe('2026-03-01T05:00:00.000Z');
    // 2026-03-31 23:30 in New York (EDT, UTC-4) is still March; midnight on April 1 is 04:00 UTC.
    expect(startOfMonth(new Date('2026-04-01T03:30:00Z'), NY).toISOString()).toBe('2026-03-01T05:00:00.000Z');
    expect(startOfMonth(new Date('2026-04-01T04:00:00Z'), NY).toISOString()).toBe('2026-04-01T04:00:00.000Z');
  });

  it('uses UTC months for UTC', () => {
    expect(startOfMonth(new Date('2026-12-01T02:59:00Z'), 'UTC').toISOString()).toBe(
      '2026-12-01T00:00:00.000Z',
    );
  });

  it('keeps offsets right on both sides of a change, at the hour and inside one', () => {
    // New York at 07:00 UTC on 2026-03-08 (the change falls on an hour).
    expect(timezoneOffsetMinutes(new Date('2026-03-08T06:59:59.999Z'), 'America/New_York')).toBe(-300);
    expect(timezoneOffsetMinutes(new Date('2026-03-08T07:00:00.000Z'), 'America/New_York')).toBe(-240);
    expect(timezoneOffsetMinutes(new Date('2026-03-08T06:30:00.000Z'), 'America/New_York')).toBe(-300);
    // Lord Howe moves by half an hour at 15:30 UTC on 2026-10-03: that hour has two offsets.
    const zone = 'Australia/Lord_Howe';
    expect(timezoneOffsetMinutes(new Date('2026-10-03T15:10:00Z'), zone)).toBe(630);
    expect(timezoneOffsetMinutes(new Date('2026-10-03T15:40:00Z'), zone)).toBe(660);
    expect(timezoneOffsetMinutes(new Date('2026-10-03T15:10:00Z'), zone)).toBe(630);
    expect(timezoneOffsetMinutes(new Date('2026-10-03T15:29:59.999Z'), zone)).toBe(630);
    expect(timezoneOffsetMinutes(new Date('2026-10-03T15:30:00Z'), zone)).toBe(660);
  });

  it('formats with the zone offset', () => {
    expect(formatInZone(new Date('2026-11-22T10:02:11.412Z'), SP)).toBe('2026-11-22T07:02:11.412-03:00');
    expect(formatInZone(new Date('2026-11-22T10:02:11.412Z'), 'UTC')).toBe('2026-11-22T10:02:11.412+00:00');
  });
});
