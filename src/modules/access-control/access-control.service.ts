import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { RequestOrigin } from '../../common/logging/request-context';
import { startOfDay } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SessionVariable, Statement } from '../../database/statement-batch';
import { Transactions } from '../../database/transactions';
import { BENEFICIARY_RULE_LABELS, GYM_RULE_LABELS } from '../eligibility/eligibility';
import { Admission } from '../eligibility/eligibility.service';
import {
  CheckInConfirmationService,
  NoCheckInToConfirm,
} from '../member-check-ins/check-in-confirmation.service';
import { assertPending, CheckInNotPending, statusAt } from '../member-check-ins/member-check-in-status';
import { CheckInWithPlanRow, LOOKED_UP } from '../member-check-ins/member-check-ins.repository';
import { TokenLookupLimiter } from '../member-check-ins/token-lookup-limiter';
import { productIdOf } from '../partners/product-id';
import { accessRefusal, refusalOf } from './access-auth';
import {
  AccessControlRepository,
  AccessGym,
  AccessGymKey,
  counterIdOf,
  GymWithPendingCheckIn,
  KeyDoesNotReach,
} from './access-control.repository';
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

/** The answer to a validation that recorded the visit. */
function validated(
  request: ValidateRequest,
  gym: AccessGym,
  checkIn: CheckInWithPlanRow,
  admission: Admission,
): ValidateResponseDto {
  return {
    metadata: { total: 1, errors: 0 },
    results: {
      user: { gympass_id: request.memberNumber },
      gym: {
        id: gym.gymId,
        product:
          checkIn.planId === null ? null : { id: productIdOf(checkIn.planId), description: checkIn.planName },
      },
      validated_at: utcSeconds(admission.at),
    },
  };
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
   * leaves the gym to it), the first of the confirmation's transaction (at READ COMMITTED, see
   * CheckInConfirmationService.confirmAtEndpoint), so a validation costs the round trips of a confirmation at
   * its endpoint. When none is pending, the latest is read for the refusal and what follows runs as for a
   * check-in read before (validateCheckIn). A key that does not reach the gym is refused as AccessGuard refuses
   * it, before the body's and the limit's answers. A key shaped as a place key is looked up as the gym's own
   * first, which spares the look-up the partner's row; when it is not, the key's owner is read, and only a
   * partner's key has the look-up run again for any key (a made-up key costs no second transaction).
   */
  async validate(key: AccessGymKey, body: unknown, origin: RequestOrigin): Promise<ValidateResponseDto> {
    const request = await this.validateRequest(key, body);
    return this.validateFor(key, request, origin, key.placeShaped === true);
  }

  private async validateFor(
    key: AccessGymKey,
    request: ValidateRequest,
    origin: RequestOrigin,
    asPlaceKey: boolean,
  ): Promise<ValidateResponseDto> {
    const now = this.clock.now();
    const lookUp = this.limiter.lookUpStatement(
      (windowStart, failureLimit) =>
        this.repository.gymWithPendingCheckInStatement(
          key,
          request.memberNumber,
          windowStart,
          failureLimit,
          asPlaceKey,
        ),
      'access.lookupsLimited',
    );
    let read: GymWithPendingCheckIn | undefined;
    const pending: Statement<CheckInWithPlanRow> = {
      ...lookUp,
      read: (result) => {
        read = lookUp.read(result);
        // One pending, but past its time since before today: as none.
        if (!read.checkIn || !this.countsNow(read.checkIn, now)) throw new NoCheckInToConfirm();
        origin.notePlace(read.gym.placeId);
        return read.checkIn;
      },
    };
    try {
      const admission = await this.transactions.batch(
        (tx) =>
          this.confirmations.confirm(
            tx,
            pending,
            {},
            origin.requestId,
            this.customCodeStatements(LOOKED_UP.beneficiaryId, LOOKED_UP.placeId, request),
          ),
        { isolation: 'READ COMMITTED' },
      );
      if (!read?.checkIn) throw new Error('The validated check-in was not read');
      return validated(request, read.gym, read.checkIn, admission);
    } catch (error) {
      if (error instanceof KeyDoesNotReach) {
        if (!asPlaceKey) throw await accessRefusal(this.repository, key.hash, key.gymId);
        // Not the gym's place key: a partner's key may still reach the gym; any other is refused as it was.
        const credential = await this.repository.credentialOf(key.hash);
        if (credential?.kind === 'partner') return this.validateFor(key, request, origin, false);
        throw refusalOf(credential, key.gymId);
      }
      if (!(error instanceof NoCheckInToConfirm) || !read)
        throw await this.refused(error, read?.checkIn, request);
    }
    const { gym, checkIn, memberFound } = read;
    const latest =
      checkIn ??
      (memberFound ? await this.repository.latestCheckIn(request.memberNumber, gym.placeId) : undefined);
    return this.validateCheckIn(gym, latest, request, origin, now);
  }

  /**
   * The validation of the member's latest check-in at the gym `checkIn`, read before its transaction: one
   * that does not count now is none (404, counted as a failed look-up); one no longer pending is refused.
   */
  private async validateCheckIn(
    gym: AccessGym,
    checkIn: CheckInWithPlanRow | undefined,
    request: ValidateRequest,
    origin: RequestOrigin,
    now: Date,
  ): Promise<ValidateResponseDto> {
    if (!checkIn || !this.countsNow(checkIn, now)) {
      await this.limiter.countFailure(counterIdOf(gym.credential));
      throw checkInNotFound(request.memberNumber);
    }
    origin.notePlace(gym.placeId);
    try {
      // A check-in already confirmed, cancelled or expired is answered without a transaction.
      assertPending(checkIn, now, this.config.businessTimezone, 'confirm');
      const admission = await this.transactions.batch((tx) =>
        this.confirmations.confirm(
          tx,
          checkIn,
          {},
          origin.requestId,
          this.customCodeStatements(checkIn.beneficiaryId, gym.placeId, request),
        ),
      );
      return validated(request, gym, checkIn, admission);
    } catch (error) {
      throw await this.refused(error, checkIn, request);
    }
  }

  /** The custom code a validation sends, written with its confirmation. */
  private customCodeStatements(
    beneficiaryId: number | SessionVariable,
    placeId: string | SessionVariable,
    request: ValidateRequest,
  ): Statement[] {
    return request.customCode === undefined
      ? []
      : [this.repository.customCodeStatement(beneficiaryId, placeId, request.customCode)];
  }

  /**
   * A validation's refusal in that platform's words (asAccessRefusal); a custom code sent with a validation of a
   * check-in no longer pending is kept all the same.
   */
  private async refused(
    error: unknown,
    checkIn: CheckInWithPlanRow | undefined,
    request: ValidateRequest,
  ): Promise<unknown> {
    if (error instanceof CheckInNotPending && checkIn && request.customCode !== undefined) {
      await this.repository.setCustomCode(checkIn.beneficiaryId, checkIn.placeId, request.customCode);
    }
    return asAccessRefusal(error);
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
