import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { RequestOrigin } from '../../common/logging/request-context';
import { startOfDay } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Transactions } from '../../database/transactions';
import { BENEFICIARY_RULE_LABELS, GYM_RULE_LABELS } from '../eligibility/eligibility';
import { Admission } from '../eligibility/eligibility.service';
import { CheckInConfirmationService } from '../member-check-ins/check-in-confirmation.service';
import { assertPending, CheckInNotPending, statusAt } from '../member-check-ins/member-check-in-status';
import { CheckInWithPlanRow } from '../member-check-ins/member-check-ins.repository';
import { TokenLookupLimiter } from '../member-check-ins/token-lookup-limiter';
import { productIdOf } from '../partners/product-id';
import { accessRefusal } from './access-auth';
import { AccessControlRepository, AccessGym, AccessGymKey, counterIdOf } from './access-control.repository';
import {
  parseCustomCodeRequest,
  parseMemberNumber,
  parseValidateRequest,
  ValidateRequest,
} from './access-requests';
import { ValidateResponseDto } from './dto/access-control.dto';

const RULE_LABELS: readonly string[] = [...GYM_RULE_LABELS, ...BENEFICIARY_RULE_LABELS];

/** `2026-11-22T10:02:11Z`: ISO 8601 in UTC, to the second, as that platform writes `validated_at`. */
function utcSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function checkInNotFound(memberNumber: string): DomainError {
  return new DomainError('not_exists', message('access.checkInNotFound', { member: memberNumber }), {
    status: 404,
    accessKey: 'checkin.validation.notfound',
  });
}

export function memberNotFound(memberNumber: string): DomainError {
  return new DomainError('not_exists', message('access.memberNotFound', { member: memberNumber }), {
    status: 404,
    accessKey: 'checkin.validation.notfound',
  });
}

/**
 * A refusal of the confirmation in that platform's words: a check-in no longer pending is `canceled`,
 * `expired`, or (the same check-in, confirmed already) `checkin.already.validated`; a rule that refuses is
 * `denied`, with its label. Anything else is not a refusal and goes on as it is.
 */
export function asAccessRefusal(error: unknown): unknown {
  if (error instanceof CheckInNotPending) {
    const accessKey =
      error.checkInStatus === 'validated'
        ? 'checkin.already.validated'
        : error.checkInStatus === 'cancelled'
          ? 'checkin.validation.canceled'
          : 'checkin.validation.expired';
    return new DomainError(error.label, error.detail, { status: 400, accessKey });
  }
  if (error instanceof DomainError && RULE_LABELS.includes(error.label)) {
    return new DomainError(error.label, error.detail, {
      status: 400,
      accessKey: 'checkin.validation.denied',
    });
  }
  return error;
}

/**
 * `POST /access/v1/validate` and the custom codes. A validation is the member check-in's confirmation, the one
 * path that also serves its `endpoint` and its token (CheckInConfirmationService.confirm): the rules 3 to 9
 * under the beneficiary's lock, one visit, the check-in validated, its CHECK_IN_VALIDATED event, all in one
 * transaction; racing validations of one check-in queue on the lock and all but the first find it validated.
 */
@Injectable()
export class AccessControlService {
  constructor(
    private readonly repository: AccessControlRepository,
    private readonly confirmations: CheckInConfirmationService,
    private readonly limiter: TokenLookupLimiter,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The gym, the key's failed look-ups and the member's pending check-in are read in one statement (the guard
   * leaves the gym to it), so a validation costs the round trips of a confirmation at its endpoint; a refusal
   * for a check-in no longer pending reads the latest in a second one. A key that does not reach the gym is
   * refused as AccessGuard refuses it, before the body's and the limit's answers.
   */
  async validate(key: AccessGymKey, body: unknown, origin: RequestOrigin): Promise<ValidateResponseDto> {
    const request = await this.validateRequest(key, body);
    const { gym, checkIn } = await this.limiter.lookUp(async (windowStart, failureLimit) => {
      const read = await this.repository.gymWithLatestCheckIn(
        key,
        request.memberNumber,
        windowStart,
        failureLimit,
      );
      if (!read) throw await accessRefusal(this.repository, key.hash, key.gymId);
      return read;
    }, 'access.lookupsLimited');
    const now = this.clock.now();
    if (!checkIn || !this.countsNow(checkIn, now)) {
      await this.limiter.countFailure(counterIdOf(gym.credential));
      throw checkInNotFound(request.memberNumber);
    }
    origin.notePlace(gym.placeId);
    const customCode =
      request.customCode === undefined
        ? []
        : [this.repository.customCodeStatement(checkIn.beneficiaryId, gym.placeId, request.customCode)];
    let admission: Admission;
    try {
      // A check-in already confirmed, cancelled or expired is answered without a transaction.
      assertPending(checkIn, now, this.config.businessTimezone, 'confirm');
      admission = await this.transactions.batch((tx) =>
        this.confirmations.confirm(tx, checkIn, {}, origin.requestId, customCode),
      );
    } catch (error) {
      if (error instanceof CheckInNotPending && request.customCode !== undefined) {
        await this.repository.setCustomCode(checkIn.beneficiaryId, gym.placeId, request.customCode);
      }
      throw asAccessRefusal(error);
    }
    return {
      metadata: { total: 1, errors: 0 },
      results: {
        user: { gympass_id: request.memberNumber },
        gym: {
          id: gym.gymId,
          product:
            checkIn.planId === null
              ? null
              : { id: productIdOf(checkIn.planId), description: checkIn.planName },
        },
        validated_at: utcSeconds(admission.at),
      },
    };
  }

  async setCustomCode(gym: AccessGym, rawMemberNumber: string, body: unknown): Promise<void> {
    const memberNumber = parseMemberNumber(rawMemberNumber, 'gympass_id');
    const customCode = parseCustomCodeRequest(body);
    const beneficiaryId = await this.repository.memberId(memberNumber);
    if (beneficiaryId === undefined) throw memberNotFound(memberNumber);
    await this.repository.setCustomCode(beneficiaryId, gym.placeId, customCode);
  }

  async deleteCustomCode(gym: AccessGym, rawMemberNumber: string): Promise<void> {
    const memberNumber = parseMemberNumber(rawMemberNumber, 'gympass_id');
    const beneficiaryId = await this.repository.memberId(memberNumber);
    if (beneficiaryId === undefined) throw memberNotFound(memberNumber);
    await this.repository.deleteCustomCode(beneficiaryId, gym.placeId);
  }

  /** The body; an invalid one is answered only for a key that reaches the gym (401 and 403 come first). */
  private async validateRequest(key: AccessGymKey, body: unknown): Promise<ValidateRequest> {
    try {
      return parseValidateRequest(body);
    } catch (error) {
      if (!(await this.repository.gymForKey(key.hash, key.gymId))) {
        throw await accessRefusal(this.repository, key.hash, key.gymId);
      }
      throw error;
    }
  }

  /**
   * Whether the member's latest check-in at the gym is the one a validation is about: pending, or started today
   * (in the business time zone); an older one counts as none.
   */
  private countsNow(checkIn: CheckInWithPlanRow, now: Date): boolean {
    return (
      statusAt(checkIn, now) === 'pending' ||
      checkIn.startedAt.getTime() >= startOfDay(now, this.config.businessTimezone).getTime()
    );
  }
}
