import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError, invalidParameter } from '../../common/errors/domain-error';
import { ERROR_LABELS, ErrorLabel } from '../../common/errors/error-label';
import { isMessageKey, labelMessage, Message } from '../../common/i18n/messages';
import { startOfMonth } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { retryOnDeadlock } from '../../database/mysql-errors';
import { AuthenticatedPlace } from '../auth/auth.types';
import { WebhookOutboxService } from '../webhooks/webhook-outbox.service';
import { PlaceKeyCache } from '../auth/place-key-cache';
import {
  BeneficiaryKey,
  CheckInRepository,
  IdempotencyKeyTaken,
  IdempotencyRecord,
  VisitWindow,
} from './check-in.repository';
import { cannotExist, checkBeneficiary, checkGym, GymPlan, notExists } from './eligibility';
import { parseTrackUsageRequest, TrackUsageRequest } from './track-usage-request';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * The refusal a replay answers with, as stored by the first request: its message key and values, so the
 * repeat reads it in its own language. A record in another shape gets the label's own sentence.
 */
function storedDetail(label: ErrorLabel, stored: string | null): Message {
  try {
    const parsed = JSON.parse(stored ?? '') as Partial<Message>;
    if (isMessageKey(parsed?.key)) return { key: parsed.key, params: parsed.params };
  } catch {
    // Not a stored message: fall through.
  }
  return labelMessage(label);
}

/** A visit the rules allow: who, at which plan (null at a gym without plans), stamped with which time. */
interface Admission {
  beneficiaryId: number;
  plan: GymPlan | null;
  checkInSubscribed: boolean;
  at: Date;
}

/** Validate and register share one evaluation (`admit`), in the contract's order. */
@Injectable()
export class CheckInService {
  constructor(
    private readonly repository: CheckInRepository,
    private readonly outbox: WebhookOutboxService,
    private readonly keyCache: PlaceKeyCache,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checks eligibility without consuming a visit; writes nothing. */
  async validate(place: AuthenticatedPlace, body: unknown): Promise<void> {
    const request = parseTrackUsageRequest(body);
    const beneficiary = cannotExist(request) ? null : request;
    await this.admit(this.dataSource, place, request, beneficiary);
  }

  /** Records exactly one visit, or answers why not; an Idempotency-Key replays the first outcome for 24 h. */
  async register(place: AuthenticatedPlace, body: unknown, idempotencyKey?: string): Promise<void> {
    const request = parseTrackUsageRequest(body);
    const key = this.parseIdempotencyKey(idempotencyKey);
    if (key === undefined) return this.recordVisit(place, request);

    const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    const replay = await this.findLiveRecord(place.placeId, key);
    if (replay) return this.replay(replay, requestHash, key);
    try {
      await this.recordVisit(place, request, { key, requestHash });
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTaken)) throw error;
      const first = await this.repository.findIdempotencyRecord(place.placeId, key);
      if (!first) throw new Error(`Idempotency record ${key} vanished after a duplicate-key error`);
      return this.replay(first, requestHash, key);
    }
  }

  private async recordVisit(
    place: AuthenticatedPlace,
    request: TrackUsageRequest,
    idempotency?: { key: string; requestHash: string },
  ): Promise<void> {
    // A deadlock rolled the whole transaction back, claim included: run it again.
    await retryOnDeadlock(async () => {
      const refusal = await this.dataSource.transaction(async (manager) => {
        if (idempotency) {
          await this.repository.claimIdempotencyKey(
            manager,
            place.placeId,
            idempotency.key,
            { requestHash: idempotency.requestHash, statusCode: 204, errorLabel: null, errorDetail: null },
            this.clock.now(),
          );
        }
        let admitted: Admission;
        try {
          // The row lock is held until commit: concurrent registers of this beneficiary queue here.
          const lockedId = cannotExist(request)
            ? undefined
            : await this.repository.lockBeneficiary(manager, request);
          admitted = await this.admit(
            manager,
            place,
            request,
            lockedId === undefined ? null : { id: lockedId },
          );
        } catch (error) {
          if (!idempotency || !(error instanceof DomainError) || error.status !== 422) throw error;
          // Commit the refusal with the claim: a concurrent repeat waiting on the key then replays it.
          await this.repository.recordIdempotentRefusal(manager, place.placeId, idempotency.key, {
            statusCode: error.status,
            errorLabel: error.label,
            errorDetail: JSON.stringify(error.detail).slice(0, 1000),
          });
          return error;
        }
        await this.insertVisit(manager, place, admitted);
        return undefined;
      });
      if (refusal) throw refusal;
    });
  }

  /**
   * Rules 2 to 9 on the facts as the database has them now; in a register they are read once the beneficiary
   * is locked, so a visit committed by the previous holder of the lock is seen.
   */
  private async admit(
    executor: DataSource | EntityManager,
    place: AuthenticatedPlace,
    request: TrackUsageRequest,
    beneficiaryKey: BeneficiaryKey | null,
  ): Promise<Admission> {
    const now = this.clock.now();
    const facts = await this.repository.findCheckInFacts(
      executor,
      place.placeId,
      beneficiaryKey,
      this.windowAt(now),
    );
    this.keyCache.assertCurrent(place, facts);
    const plan = checkGym(request, facts.gym);
    if (cannotExist(request)) throw notExists(request);
    const { beneficiary } = facts;
    checkBeneficiary(request, facts.gym, plan, beneficiary, this.contextAt(now));
    return { beneficiaryId: beneficiary.id, plan, checkInSubscribed: facts.checkInSubscribed, at: now };
  }

  /** The visit and, where a webhook listens, its outbox event, in the transaction that holds the lock. */
  private async insertVisit(
    manager: EntityManager,
    place: AuthenticatedPlace,
    { beneficiaryId, plan, checkInSubscribed, at }: Admission,
  ): Promise<void> {
    const visitId = await this.repository.insertVisit(manager, {
      beneficiaryId,
      placeId: place.placeId,
      planId: plan?.id ?? null,
      createdAt: at,
    });
    if (!checkInSubscribed) return;
    await this.outbox.recordCheckIn(manager, {
      visitId,
      placeId: place.placeId,
      beneficiaryId,
      planCode: plan?.code ?? null,
      createdAt: at,
    });
  }

  private windowAt(now: Date): VisitWindow {
    return {
      monthStart: startOfMonth(now, this.config.businessTimezone),
      recentSince: new Date(now.getTime() - this.config.recentCheckinWindowSeconds * 1000),
    };
  }

  private contextAt(now: Date) {
    return {
      now,
      recentWindowSeconds: this.config.recentCheckinWindowSeconds,
      timeZone: this.config.businessTimezone,
    };
  }

  private parseIdempotencyKey(raw: string | undefined): string | undefined {
    if (raw === undefined) return undefined;
    const key = raw.trim();
    if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw invalidParameter('trackUsage.idempotencyKeyLength', { max: MAX_IDEMPOTENCY_KEY_LENGTH });
    }
    return key;
  }

  private async findLiveRecord(placeId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const record = await this.repository.findIdempotencyRecord(placeId, key);
    if (!record) return undefined;
    const expiredBefore = new Date(this.clock.now().getTime() - IDEMPOTENCY_TTL_MS);
    if (record.createdAt > expiredBefore) return record;
    await this.repository.deleteExpiredIdempotencyRecord(placeId, key, expiredBefore);
    return undefined;
  }

  private replay(record: IdempotencyRecord, requestHash: string, key: string): void {
    if (record.requestHash !== requestHash) {
      throw invalidParameter('trackUsage.idempotencyKeyReused', { key });
    }
    if (record.statusCode === 204) return;
    const label = ERROR_LABELS.includes(record.errorLabel as ErrorLabel)
      ? (record.errorLabel as ErrorLabel)
      : 'internal_error';
    throw new DomainError(label, storedDetail(label, record.errorDetail), { status: record.statusCode });
  }
}
