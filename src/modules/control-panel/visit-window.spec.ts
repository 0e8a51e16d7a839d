import { InvalidInstantError, parseBound } from './visit-window';

const SP = 'America/Sao_Paulo';

describe('parseBound', () => {
  it('reads a date alone as the start of that day in the business time zone', () => {
    expect(parseBound('2026-11-03', SP).toISOString()).toBe('2026-11-03T03:00:00.000Z');
  });

  it('reads a date alone as an end bound as the start of the next day', () => {
    expect(parseBound('2026-11-30', SP, true).toISOString()).toBe('2026-12-01T03:00:00.000Z');
    expect(parseBound('2026-12-31', SP, true).toISOString()).toBe('2027-01-01T03:00:00.000Z');
  });

  it('honours an offset or Z, and reads a time without one in the business time zone', () => {
    expect(parseBound('2026-11-03T10:00:00-03:00', SP).toISOString()).toBe('2026-11-03T13:00:00.000Z');
    expect(parseBound('2026-11-03T10:00:00+0530', SP).toISOString()).toBe('2026-11-03T04:30:00.000Z');
    expect(parseBound('2026-11-03T10:00:00.25Z', SP).toISOString()).toBe('2026-11-03T10:00:00.250Z');
    expect(parseBound('2026-11-03T10:00', SP).toISOString()).toBe('2026-11-03T13:00:00.000Z');
    expect(parseBound('2026-11-03T10:00', 'UTC').toISOString()).toBe('2026-11-03T10:00:00.000Z');
  });

  it.each(['yesterday', '2026-13-01', '2026-02-30', '2026-11-03T25:00', '2026-11', '1', '2026-11-03 10:00'])(
    'refuses %s',
    (value) => {
      expect(() => parseBound(value, SP)).toThrow(InvalidInstantError);
    },
  );
});
