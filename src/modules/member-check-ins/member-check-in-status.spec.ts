import { DomainError } from '../../common/errors/domain-error';
import { translate } from '../../common/i18n/messages';
import { assertPending, statusAt } from './member-check-in-status';
import type { CheckInState } from './member-check-ins.repository';

const ZONE = 'America/Sao_Paulo';
const started = new Date('2026-11-22T10:02:00.000Z');
const expires = new Date('2026-11-22T11:32:00.000Z');

function checkIn(overrides: Partial<CheckInState> = {}): CheckInState {
  return {
    id: 'c1',
    beneficiaryId: 1,
    placeId: 'p1',
    planId: null,
    token: '123456',
    status: 'pending',
    cancelReason: null,
    startedAt: started,
    expiresAt: expires,
    validatedAt: null,
    cancelledAt: null,
    ...overrides,
  };
}

function refusal(run: () => void): { label: string; detail: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { label: error.label, detail: translate('en', error.detail) };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('statusAt', () => {
  it('reads a pending check-in past expires_at as expired, to the millisecond', () => {
    expect(statusAt(checkIn(), new Date(expires.getTime() - 1))).toBe('pending');
    expect(statusAt(checkIn(), expires)).toBe('expired');
    expect(statusAt(checkIn({ status: 'validated' }), expires)).toBe('validated');
    expect(statusAt(checkIn({ status: 'expired' }), started)).toBe('expired');
  });
});

describe('assertPending', () => {
  const before = new Date(expires.getTime() - 1000);

  it('passes a pending check-in before its time', () => {
    expect(() => assertPending(checkIn(), before, ZONE, 'confirm')).not.toThrow();
  });

  it('says when it was confirmed, cancelled or replaced, in the business time zone', () => {
    const at = new Date('2026-11-22T10:05:00.000Z');
    expect(
      refusal(() =>
        assertPending(checkIn({ status: 'validated', validatedAt: at }), before, ZONE, 'confirm'),
      ),
    ).toEqual({
      label: 'check_in_not_available',
      detail: 'This check-in was already confirmed at 2026-11-22 07:05.',
    });
    expect(
      refusal(() =>
        assertPending(
          checkIn({ status: 'cancelled', cancelledAt: at, cancelReason: 'member' }),
          before,
          ZONE,
          'confirm',
        ),
      ).detail,
    ).toBe('This check-in was cancelled at 2026-11-22 07:05.');
    expect(
      refusal(() =>
        assertPending(
          checkIn({ status: 'cancelled', cancelledAt: at, cancelReason: 'replaced' }),
          before,
          ZONE,
          'cancel',
        ),
      ).detail,
    ).toBe('This check-in was replaced at 2026-11-22 07:05 by a newer check-in of the member.');
  });

  it('refuses an expired check-in: check_in_expired_alert to confirm it, check_in_not_available to cancel it', () => {
    expect(refusal(() => assertPending(checkIn(), expires, ZONE, 'confirm'))).toEqual({
      label: 'check_in_expired_alert',
      detail: 'This check-in expired at 2026-11-22 08:32; the member must check in again in the app.',
    });
    expect(refusal(() => assertPending(checkIn({ status: 'expired' }), expires, ZONE, 'cancel'))).toEqual({
      label: 'check_in_not_available',
      detail: 'This check-in expired at 2026-11-22 08:32; there is nothing left to cancel.',
    });
  });
});
