import { Inject, Injectable } from '@nestjs/common';
import { startOfMonth } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { BatchTransaction, SessionVariable, Statement } from '../../database/statement-batch';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthenticatedPlace } from '../auth/auth.types';
import { PlaceKeyCache } from '../auth/place-key-cache';
import {
  BeneficiaryKey,
  CheckInFacts,
  EligibilityRepository,
  SubscriberRead,
} from './eligibility.repository';
import { cannotExist, checkBeneficiary, checkGym, GymPlan, notExists } from './eligibility';
import { TrackUsageRequest } from './track-usage-request';
import type { SubscribedFacts, WellhubSubscriber } from '../webhooks/webhooks.repository';

/** A visit the rules allow: who, at which plan (null at a gym without plans), stamped with which time. */
export interface Admission {
  beneficiaryId: number;
  plan: GymPlan | null;
  checkInSubscribed: boolean;
  /** What the CHECKIN event needs, when it was asked for and the place has an active subscription. */
  subscriber?: SubscribedFacts;
  /** What a Wellhub-format `checkin` event needs, when asked for and the place has that subscription. */
  wellhub?: WellhubSubscriber;
  at: Date;
}

/** The facts of one evaluation and the moment they describe. */
export interface FactsNow {
  facts: CheckInFacts;
  now: Date;
}

/**
 * Facts read in the round trip that took the beneficiary's lock, by the same key: a beneficiary the lock did
 * not find (one created in between) was not locked, and is not admitted.
 */
export function lockedFacts(lockedId: number | undefined, read: FactsNow): FactsNow {
  return lockedId === undefined ? { ...read, facts: { ...read.facts, beneficiary: undefined } } : read;
}

/**
 * Rules 2 to 9 on the facts as the database has them now, for every path that turns a request into a visit or a
 * member check-in: validate, register (by CPF, code or token), the confirmation endpoint and the member API.
 * In a transaction that holds the beneficiary's lock the facts are read after it, so a visit committed by the
 * previous holder of the lock is seen.
 */
@Injectable()
export class EligibilityService {
  constructor(
    private readonly repository: EligibilityRepository,
    private readonly keyCache: PlaceKeyCache,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The gym and the beneficiary (`beneficiary` null looks none up) as of now, in the transaction `tx` or on
   * its own. With `key`, the caller's x-api-key, a key rotated since it was resolved is refused (401) by this
   * same read.
   */
  async factsNow(
    tx: BatchTransaction | undefined,
    placeId: string,
    beneficiary: BeneficiaryKey | null,
    key?: AuthenticatedPlace,
  ): Promise<FactsNow> {
    return this.repository.run(this.factsStatement(placeId, beneficiary, key), tx);
  }

  /**
   * factsNow as a statement, for a caller that sends it with others (after the locks it needs, in one round
   * trip): its result is the FactsNow, checked as factsNow checks it. `placeId` may be a SessionVariable set by
   * a statement before it (see BeneficiaryKey).
   */
  factsStatement(
    placeId: string | SessionVariable,
    beneficiary: BeneficiaryKey | null,
    key?: AuthenticatedPlace,
    subscriber: SubscriberRead = 'none',
  ): Statement<FactsNow> {
    const now = this.clock.now();
    const facts = this.repository.factsStatement(
      placeId,
      beneficiary,
      {
        monthStart: startOfMonth(now, this.config.businessTimezone),
        recentSince: new Date(now.getTime() - this.config.recentCheckinWindowSeconds * 1000),
      },
      subscriber,
    );
    // The same statement (prepared as it is), read further.
    return {
      ...facts,
      read: (result) => {
        const read = facts.read(result);
        if (key) this.keyCache.assertCurrent(key, read);
        // Places are never deleted: one that is gone was never there.
        if (!read) throw new Error(`Place ${placeId} does not exist`);
        return { facts: read, now };
      },
    };
  }

  /** Rules 2 to 9 on facts already read, in the contract's order; the first that fails is the answer. */
  admitOn({ facts, now }: FactsNow, request: TrackUsageRequest): Admission {
    const plan = checkGym(request, facts.gym);
    if (cannotExist(request)) throw notExists(request);
    checkBeneficiary(request, facts.gym, plan, facts.beneficiary, {
      now,
      recentWindowSeconds: this.config.recentCheckinWindowSeconds,
      timeZone: this.config.businessTimezone,
    });
    return {
      beneficiaryId: facts.beneficiary.id,
      plan,
      checkInSubscribed: facts.checkInSubscribed,
      subscriber: facts.subscriber,
      wellhub: facts.wellhub,
      at: now,
    };
  }

  /** Reads the facts as of now, outside any transaction, and applies rules 2 to 9. */
  async admit(
    placeId: string,
    request: TrackUsageRequest,
    beneficiary: BeneficiaryKey | null,
    key?: AuthenticatedPlace,
  ): Promise<Admission> {
    return this.admitOn(await this.factsNow(undefined, placeId, beneficiary, key), request);
  }
}
