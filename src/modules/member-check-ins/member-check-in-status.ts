import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { formatInZone } from '../../common/time/business-time';
import type { CheckInState } from './member-check-ins.repository';

export const CHECK_IN_STATUSES = ['pending', 'validated', 'expired', 'cancelled'] as const;
/** A check-in's status as the API shows it. */
export type CheckInStatus = (typeof CHECK_IN_STATUSES)[number];

type StatusFacts = Pick<CheckInState, 'status' | 'expiresAt'>;

/** A pending check-in past `expires_at` is expired, whether or not its row says so yet. */
export function statusAt(checkIn: StatusFacts, now: Date): CheckInStatus {
  if (checkIn.status === 'pending' && checkIn.expiresAt.getTime() <= now.getTime()) return 'expired';
  return checkIn.status;
}

/** A refusal because the check-in is no longer pending, with the status it has: its answer, as other contracts word it. */
export class CheckInNotPending extends DomainError {
  constructor(
    readonly checkInStatus: Exclude<CheckInStatus, 'pending'>,
    ...error: ConstructorParameters<typeof DomainError>
  ) {
    super(...error);
  }
}

/** `2026-11-22 07:02` in the business time zone: refusals name the moment, which may be another day. */
function localTime(date: Date, timeZone: string): string {
  return formatInZone(date, timeZone).slice(0, 16).replace('T', ' ');
}

/**
 * Passes while the check-in can still be confirmed or cancelled; otherwise the refusal: 422
 * `check_in_not_available` (confirmed, cancelled or replaced) or `check_in_expired_alert` (past its time;
 * `check_in_not_available` too for a cancellation, which has nothing left to cancel).
 */
export function assertPending(
  checkIn: CheckInState,
  now: Date,
  timeZone: string,
  purpose: 'confirm' | 'cancel',
): void {
  const at = (date: Date | null) => localTime(date ?? now, timeZone);
  switch (statusAt(checkIn, now)) {
    case 'pending':
      return;
    case 'validated':
      throw new CheckInNotPending(
        'validated',
        'check_in_not_available',
        message('memberCheckIn.validated', { at: at(checkIn.validatedAt) }),
      );
    case 'cancelled':
      throw new CheckInNotPending(
        'cancelled',
        'check_in_not_available',
        message(checkIn.cancelReason === 'replaced' ? 'memberCheckIn.replaced' : 'memberCheckIn.cancelled', {
          at: at(checkIn.cancelledAt),
        }),
      );
    case 'expired':
      if (purpose === 'cancel') {
        throw new CheckInNotPending(
          'expired',
          'check_in_not_available',
          message('memberCheckIn.expiredNotCancellable', { at: at(checkIn.expiresAt) }),
        );
      }
      throw new CheckInNotPending(
        'expired',
        'check_in_expired_alert',
        message('memberCheckIn.expired', { at: at(checkIn.expiresAt) }),
      );
  }
}
