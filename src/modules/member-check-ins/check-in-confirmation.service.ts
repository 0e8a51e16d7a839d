import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { RequestOrigin } from '../../common/logging/request-context';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { BatchTransaction, Statement } from '../../database/statement-batch';
import { Transactions } from '../../database/transactions';
import { AuthenticatedPlace } from '../auth/auth.types';
import { EligibilityRepository } from '../eligibility/eligibility.repository';
import { checkGymStanding, recentVisitRefusal } from '../eligibility/eligibility';
import { Admission, EligibilityService, FactsNow } from '../eligibility/eligibility.service';
import { TokenRequest } from '../eligibility/track-usage-request';
import { WebhookOutboxService } from '../webhooks/delivery/webhook-outbox.service';
import { CHECK_IN_VALIDATED } from '../webhooks/webhooks.constants';
import { hashConfirmationToken, parseConfirmationToken } from './check-in-tokens';
import { assertPending } from './member-check-in-status';
import {
  CheckInState,
  CheckInToConfirm,
  FORGET_LOOKED_UP,
  LOOKED_UP,
  MemberCheckInsRepository,
} from './member-check-ins.repository';

/**
 * Thrown by the read of a confirmation's look-up (see CheckInConfirmationService.confirm) that found no check-in
 * to confirm; the caller reads what it needs for the refusal.
 */
export class NoCheckInToConfirm extends Error {}

/** How a confirmation arrives: at its endpoint (no key), or as a `token` register with the gym's key. */
export type ConfirmationBy = { key?: undefined } | { key: AuthenticatedPlace; request: TokenRequest };

/**
 * Turns a pending member check-in into a visit, whichever way the gym confirms it. The beneficiary's row is
 * locked first (as every register does), then the check-in's; the rules are read after both locks, and the
 * visit, the check-in's new state and its CHECK_IN_VALIDATED event are written in that one transaction. So any
 * number of confirmations, cancellations and registers racing on any number of processes leave exactly one
 * outcome, never more visits than the rules allow.
 */
@Injectable()
export class CheckInConfirmationService {
  constructor(
    private readonly repository: MemberCheckInsRepository,
    private readonly checkIns: EligibilityRepository,
    private readonly eligibility: EligibilityService,
    private readonly outbox: WebhookOutboxService,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `POST /api/v1/webhook_confirmations/:token`: 404 for a token that is not one of ours. Two round trips, as a
   * register: the check-in is looked up by its token's hash in the transaction's first one, ahead of the locks
   * and the facts, which take its ids from there (LOOKED_UP). At READ COMMITTED: each plain read sees what was
   * committed before it, so the facts, read after the locks, see what the previous holder of the beneficiary's
   * lock committed, although the look-up read before the locks.
   */
  async confirmAtEndpoint(segment: string, origin: RequestOrigin): Promise<void> {
    const token = parseConfirmationToken(segment);
    if (token === undefined) throw notFound('memberCheckIn.confirmationNotFound');
    const lookUp = this.repository.byConfirmationHashStatement(hashConfirmationToken(token));
    const found: Statement<CheckInToConfirm> = {
      ...lookUp,
      read: (result) => {
        // Read first: the transaction ends here. The server has run the locks and the facts read already, with
        // LOOKED_UP NULL: they locked and found nothing.
        const checkIn = lookUp.read(result);
        if (!checkIn) throw notFound('memberCheckIn.confirmationNotFound');
        origin.notePlace(checkIn.placeId);
        return checkIn;
      },
    };
    await this.transactions.batch((tx) => this.confirm(tx, found, {}, origin.requestId), {
      isolation: 'READ COMMITTED',
    });
  }

  /**
   * Confirms the check-in `found`: one read before the transaction (so that the transaction's first plain read
   * comes after its locks and sees what the previous holder of the beneficiary's lock committed), or the
   * statement that looks it up in the transaction's first round trip and sets LOOKED_UP (in a transaction at
   * READ COMMITTED, after FORGET_LOOKED_UP; its read throws when nothing is found, and it sets LOOKED_UP NULL
   * whenever the request is to be refused before its locks). Two round trips: the locks and the facts; then
   * the beneficiary's row touched (see EligibilityRepository.touchStatement), the visit, the check-in's new
   * state, its event (naming the request `requestId`), `also` (what the caller writes with the confirmation)
   * and the commit. Answers the admission: the visit's time and plan.
   */
  async confirm(
    tx: BatchTransaction,
    found: CheckInToConfirm | Statement<CheckInToConfirm>,
    by: ConfirmationBy,
    requestId: string | null,
    also: Statement[] = [],
  ): Promise<Admission> {
    const ids = isStatement(found) ? LOOKED_UP : found;
    const locks = [
      this.checkIns.lockStatement({ id: ids.beneficiaryId }),
      this.repository.lockStatement(ids.id),
      this.eligibility.factsStatement(ids.placeId, { id: ids.beneficiaryId }, by.key, 'checkIn'),
    ] as const;
    if (isStatement(found)) tx.enqueue(FORGET_LOOKED_UP, { opening: true });
    const [checkIn, [, state, factsNow]] = isStatement(found)
      ? await tx.run(found, ...locks).then(([read, ...rest]) => [read, rest] as const)
      : [found, await tx.run(...locks)];
    const admission = this.admitOn(checkIn, state, by, factsNow);
    await tx.commit(
      this.checkIns.touchStatement(admission.beneficiaryId),
      this.checkIns.insertVisitStatement({
        beneficiaryId: admission.beneficiaryId,
        placeId: state.placeId,
        planId: admission.plan?.id ?? null,
        createdAt: admission.at,
      }),
      this.repository.markValidatedStatement(state.id, admission.at),
      ...(admission.subscriber
        ? this.outbox.memberCheckInStatements(
            {
              type: CHECK_IN_VALIDATED,
              checkInId: state.id,
              placeId: state.placeId,
              beneficiaryId: state.beneficiaryId,
              token: state.token,
              status: 'validated',
              planCode: admission.plan?.code ?? null,
              startedAt: state.startedAt,
              expiresAt: state.expiresAt,
              validatedAt: admission.at,
              at: admission.at,
              requestId,
            },
            admission.subscriber,
          )
        : []),
      ...also,
    );
    return admission;
  }

  /**
   * Whether `state` can be confirmed now: through a key, rules 2 and 3 first; then the check-in still pending
   * and before its time; then rules 3 to 9 at its gym, for the plan it was made for.
   */
  async admit(found: CheckInToConfirm, state: CheckInState, by: ConfirmationBy): Promise<Admission> {
    const factsNow = await this.eligibility.factsNow(
      undefined,
      state.placeId,
      { id: state.beneficiaryId },
      by.key,
    );
    return this.admitOn(found, state, by, factsNow);
  }

  private admitOn(
    found: CheckInToConfirm,
    state: CheckInState,
    by: ConfirmationBy,
    factsNow: FactsNow,
  ): Admission {
    if (by.key) {
      checkGymStanding(by.request, factsNow.facts.gym);
      this.refuseRepeatOfVisit(state, by.key, factsNow.now);
    }
    assertPending(state, factsNow.now, this.config.businessTimezone, 'confirm');
    return this.eligibility.admitOn(factsNow, {
      type: 'token',
      identifier: state.token,
      serviceProviderCode: by.key && by.request.serviceProviderCode,
      // The check-in's own plan: a plan code sent with its token is not asked for and not used.
      servicePlanCode: found.planCode ?? undefined,
    });
  }

  /**
   * The gym sends again, with its key, the token of a check-in it confirmed (a retry after a lost answer,
   * without Idempotency-Key): while that visit is within the recent window the truth is rule 8's
   * `already_used`, the member has a visit here, which clients read as "same visit, still valid". Later, and
   * for a cancelled or replaced check-in, `assertPending` answers `check_in_not_available`. The confirmation
   * endpoint keeps `check_in_not_available` for a second confirmation, as the platform it mirrors answers.
   */
  private refuseRepeatOfVisit(state: CheckInState, key: AuthenticatedPlace, now: Date): void {
    const window = this.config.recentCheckinWindowSeconds;
    if (state.status !== 'validated' || !state.validatedAt || state.placeId !== key.placeId) return;
    if (window <= 0 || now.getTime() - state.validatedAt.getTime() >= window * 1000) return;
    throw recentVisitRefusal(state.validatedAt, true, {
      recentWindowSeconds: window,
      timeZone: this.config.businessTimezone,
    });
  }
}

function isStatement(
  found: CheckInToConfirm | Statement<CheckInToConfirm>,
): found is Statement<CheckInToConfirm> {
  return 'sql' in found;
}
