import { Inject, Injectable } from '@nestjs/common';
import { BatchTransaction, Statement } from '../../database/statement-batch';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthenticatedPlace } from '../auth/auth.types';
import { checkGymStanding, notExists } from '../eligibility/eligibility';
import { EligibilityService } from '../eligibility/eligibility.service';
import { TokenRequest } from '../eligibility/track-usage-request';
import { CheckInConfirmationService, NoCheckInToConfirm } from './check-in-confirmation.service';
import { assertPending } from './member-check-in-status';
import { CheckInRow, CheckInToConfirm, MemberCheckInsRepository } from './member-check-ins.repository';
import { TokenLookupLimiter } from './token-lookup-limiter';
import { RequestOrigin } from '../../common/logging/request-context';

type TokenIdentifier = Pick<TokenRequest, 'type' | 'identifier' | 'serviceProviderCode'>;

/**
 * `type: "token"` on validate, register and the code route: the identifier is the token of a member check-in
 * pending at the key's gym. Order: rules 2 and 3 (`invalid_gym`, `gym_inactive`), then the token (`not_exists`
 * for an unknown token or another gym's, `check_in_not_available`, `check_in_expired_alert`), then rules 4 to 9.
 * Look-ups that find nothing count against the key (TokenLookupLimiter).
 */
@Injectable()
export class TokenCheckInsService {
  constructor(
    private readonly repository: MemberCheckInsRepository,
    private readonly confirmations: CheckInConfirmationService,
    private readonly eligibility: EligibilityService,
    private readonly limiter: TokenLookupLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** 204 when a confirmation would succeed now; writes nothing. */
  async validate(key: AuthenticatedPlace, request: TokenRequest): Promise<void> {
    const { found } = await this.lookUp(key, request);
    if (!found) return this.refuseUnknown(key, request);
    await this.confirmations.admit(found, found, { key, request });
  }

  /**
   * Register: the work to run in register's transaction (at READ COMMITTED, see
   * CheckInConfirmationService.confirmAtEndpoint), which confirms the check-in exactly as its endpoint does.
   * The pending check-in is looked up in the transaction's first round trip, with the gym's failed look-ups,
   * ahead of the locks and the facts; when none is pending, the latest that had the token is confirmed (and
   * refused) the same way, and a token no check-in had is counted and refused.
   */
  registration(
    key: AuthenticatedPlace,
    request: TokenRequest,
    origin: RequestOrigin,
  ): (tx: BatchTransaction) => Promise<void> {
    // A transaction that loses a conflict runs this again: the look-up that found nothing is counted once.
    let counted = false;
    return async (tx) => {
      const lookUp = this.limiter.lookUpStatement((windowStart, failureLimit) =>
        this.repository.pendingToConfirmByTokenStatement(
          key.placeId,
          request.identifier,
          windowStart,
          failureLimit,
        ),
      );
      const pending: Statement<CheckInToConfirm> = {
        ...lookUp,
        read: (result) => {
          const { pending: found } = lookUp.read(result);
          if (!found) throw new NoCheckInToConfirm();
          return found;
        },
      };
      try {
        await this.confirmations.confirm(tx, pending, { key, request }, origin.requestId);
        return;
      } catch (error) {
        if (!(error instanceof NoCheckInToConfirm)) throw error;
      }
      const [latest] = await tx.run(this.repository.latestByTokenStatement(key.placeId, request.identifier));
      if (!latest) {
        if (!counted) await this.limiter.countFailure(key.placeId);
        counted = true;
        return this.refuseUnknown(key, request, tx);
      }
      await this.confirmations.confirm(tx, latest, { key, request }, origin.requestId);
    };
  }

  /** The code of the beneficiary who made the pending check-in. */
  async beneficiaryCode(key: AuthenticatedPlace, request: TokenIdentifier): Promise<string> {
    const { found } = await this.lookUp(key, request);
    if (!found) return this.refuseUnknown(key, request);
    const { facts, now } = await this.eligibility.factsNow(
      undefined,
      key.placeId,
      { id: found.beneficiaryId },
      key,
    );
    assertPending(found, now, this.config.businessTimezone, 'confirm');
    if (!facts.beneficiary?.benefitPlanActive) throw notExists(request);
    return found.beneficiaryCode;
  }

  /** The limit, then the token's check-in at the key's gym; a look-up that finds nothing is counted. */
  private async lookUp(
    key: AuthenticatedPlace,
    request: TokenIdentifier,
  ): Promise<{ found: CheckInRow | undefined }> {
    const { found } = await this.limiter.lookUp((windowStart, failureLimit) =>
      this.repository.findByToken(key.placeId, request.identifier, windowStart, failureLimit),
    );
    if (!found) await this.limiter.countFailure(key.placeId);
    return { found };
  }

  /**
   * Rules 2 and 3 come before the token, and a rotated key is refused: then `not_exists`. Read in the
   * register's transaction `tx`, if any.
   */
  private async refuseUnknown(
    key: AuthenticatedPlace,
    request: TokenIdentifier,
    tx?: BatchTransaction,
  ): Promise<never> {
    const { facts } = await this.eligibility.factsNow(tx, key.placeId, null, key);
    checkGymStanding(request, facts.gym);
    throw new DomainError('not_exists', message('checkIn.notExistsToken', { token: request.identifier }));
  }
}
