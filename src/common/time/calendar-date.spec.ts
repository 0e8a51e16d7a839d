import { isCalendarDate } from './calendar-date';

describe('isCalendarDate', () => {
  it.each(['1990-12-31', '2024-02-29', '2000-02-29', '1000-01-01'])('accepts %s', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each([
    '2023-02-29',
    '1900-02-29',
    '2025-04-31',
    '2026-02-30',
    '2025-13-01',
    '2025-00-10',
    '0999-01-01',
    '1990-1-2',
    '1990-01-02T00:00:00Z',
    ' 1990-01-02',
    '',
  ])('refuses %j', (date) => {
    expect(isCalendarDate(date)).toBe(false);
  });

  it('refuses what is not a string', () => {
    expect(isCalendarDate(19900102)).toBe(false);
    expect(isCalendarDate(null)).toBe(false);
  });
});
