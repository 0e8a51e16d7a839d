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

  it('uses UTC months for UTC', () => {
    expect(startOfMonth(new Date('2026-12-01T02:59:00Z'), 'UTC').toISOString()).toBe(
      '2026-12-01T00:00:00.000Z',
    );
  });

  it('formats with the zone offset', () => {
    expect(formatInZone(new Date('2026-11-22T10:02:11.412Z'), SP)).toBe('2026-11-22T07:02:11.412-03:00');
    expect(formatInZone(new Date('2026-11-22T10:02:11.412Z'), 'UTC')).toBe('2026-11-22T10:02:11.412+00:00');
  });
});
