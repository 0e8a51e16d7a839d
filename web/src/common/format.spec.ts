import { formatDuration, serviceDay, serviceHour } from './format';

describe('formatDuration', () => {
  it('says a duration in the largest units that fit', () => {
    expect(
      [45, 60, 21 * 60 + 10, 2 * 3600, 2 * 3600 + 5 * 60, 3 * 86400 + 4 * 3600, 86400].map(formatDuration),
    ).toEqual(['45 s', '1 min', '21 min', '2 h', '2 h 5 min', '3 d 4 h', '1 d']);
  });
});

describe('service times', () => {
  it('reads the wall clock of the service’s zone, not the reader’s', () => {
    expect(serviceHour('2026-11-22T07:00:00.000-03:00')).toBe('07:00');
    expect(serviceDay('2026-11-02T00:00:00.000-03:00', 'pt-BR')).toBe('02/11');
    expect(serviceDay('2026-11-02T00:00:00.000-03:00', 'en')).toBe('11/02');
  });
});
