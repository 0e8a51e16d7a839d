import { Logger } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { CheckInTally } from './check-in-tally';
import { OutcomeCount, OverviewRepository } from './overview.repository';

class FixedClock extends Clock {
  constructor(public at: Date) {
    super();
  }
  override now(): Date {
    return this.at;
  }
}

describe('CheckInTally', () => {
  // The failed write below is meant to happen; its warning is not news here.
  beforeAll(() => Logger.overrideLogger(false));

  function tally(addOutcomes: (rows: OutcomeCount[]) => Promise<void>, at = '2026-11-22T10:42:00Z') {
    const clock = new FixedClock(new Date(at));
    const repository = { addOutcomes } as unknown as OverviewRepository;
    return { tally: new CheckInTally(repository, clock), clock };
  }

  it('writes one row per hour, place, operation and outcome with how many answers it counted', async () => {
    const written: OutcomeCount[][] = [];
    const { tally: counts, clock } = tally(async (rows) => void written.push(rows));
    counts.count('p1', 'register', 'success');
    counts.count('p1', 'register', 'success');
    counts.count('p1', 'validate', 'already_used');
    counts.count(undefined, 'register', 'invalid_api_key');
    clock.at = new Date('2026-11-22T11:05:00Z');
    counts.count('p1', 'register', 'success');
    await counts.flush();
    expect(written).toHaveLength(1);
    expect(written[0]).toEqual(
      expect.arrayContaining([
        {
          hour: new Date('2026-11-22T10:00:00Z'),
          placeId: 'p1',
          operation: 'register',
          outcome: 'success',
          answers: 2,
        },
        {
          hour: new Date('2026-11-22T10:00:00Z'),
          placeId: 'p1',
          operation: 'validate',
          outcome: 'already_used',
          answers: 1,
        },
        {
          hour: new Date('2026-11-22T10:00:00Z'),
          placeId: '',
          operation: 'register',
          outcome: 'invalid_api_key',
          answers: 1,
        },
        {
          hour: new Date('2026-11-22T11:00:00Z'),
          placeId: 'p1',
          operation: 'register',
          outcome: 'success',
          answers: 1,
        },
      ]),
    );
    expect(written[0]).toHaveLength(4);
    await counts.flush();
    expect(written).toHaveLength(1);
  });

  it('keeps what it could not write for the next flush, added to what came meanwhile', async () => {
    let fail = true;
    const written: OutcomeCount[][] = [];
    const { tally: counts } = tally(async (rows) => {
      if (fail) throw new Error('database away');
      written.push(rows);
    });
    counts.count('p1', 'register', 'success');
    await counts.flush();
    counts.count('p1', 'register', 'success');
    fail = false;
    await counts.flush();
    expect(written).toEqual([[expect.objectContaining({ placeId: 'p1', answers: 2 })]]);
  });
});
