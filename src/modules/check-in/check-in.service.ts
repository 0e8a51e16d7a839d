import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainError, invalidParameter } from '../../common/errors/domain-error';
import { ERROR_LABELS, ErrorLabel } from '../../common/errors/error-label';
import { startOfMonth } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthenticatedPlace } from '../auth/auth.types';
import { WebhookOutboxService } from '../webhooks/webhook-outbox.service';
import {
  CheckInRepository,
  IdempotencyKeyTaken,
  IdempotencyRecord,
  isDeadlock,
  VisitWindow,
} from './check-in.repository';
import { cannotExist, checkBeneficiary, checkGym, GymFacts, notExists } from './eligibility';
import { parseTrackUsageRequest, TrackUsageRequest } from './track-usage-request';

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const DEADLOCK_RETRIES = 3;

/** Validate and register share one evaluation: `checkGym` then `checkBeneficiary`, in the contract's order. */
@Injectable()
export class CheckInService {
  constructor(
    private readonly repository: CheckInRepository,
    private readonly outbox: WebhookOutboxService,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checks eligibility without consuming a visit; writes nothing. */
  async validate(place: AuthenticatedPlace, body: unknown): Promise<void> {
    const request = parseTrackUsageRequest(body);
    const gym = await this.loadGym(place);
    const plan = checkGym(request, gym);
    if (cannotExist(request)) throw notExists(request);
    const now = this.clock.now();
    const beneficiary = await this.repository.findBeneficiaryFacts(
      this.dataSource,
      request,
      this.windowAt(now),
    );
    checkBeneficiary(request, gym, plan, beneficiary, this.contextAt(now));
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
      if (error instanceof IdempotencyKeyTaken) {
        const first = await this.repository.findIdempotencyRecord(place.placeId, key);
        if (first) return this.replay(first, requestHash, key);
      }
      if (error instanceof DomainError && error.status === 422) {
        await this.rememberRefusal(place.placeId, key, requestHash, error);
      }
      throw error;
    }
  }

  private async recordVisit(
    place: AuthenticatedPlace,
    request: TrackUsageRequest,
    idempotency?: { key: string; requestHash: string },
  ): Promise<void> {
    const gym = await this.loadGym(place);
    const plan = checkGym(request, gym);
    if (cannotExist(request)) throw notExists(request);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.dataSource.transaction(async (manager) => {
          if (idempotency) {
            await this.repository.claimIdempotencyKey(
              manager,
              place.placeId,
              idempotency.key,
              { requestHash: idempotency.requestHash, statusCode: 204, errorLabel: null, errorDetail: null },
              this.clock.now(),
            );
          }
          const beneficiaryId = await this.repository.lockBeneficiary(manager, request);
          if (beneficiaryId === undefined) throw notExists(request);
          // Read the time once the lock is held, so a visit committed by whoever held it before is seen.
          const now = this.clock.now();
          const beneficiary = await this.repository.findBeneficiaryFacts(
            manager,
            { id: beneficiaryId },
            this.windowAt(now),
          );
          checkBeneficiary(request, gym, plan, beneficiary, this.contextAt(now));
          const visitId = await this.repository.insertVisit(manager, {
            beneficiaryId,
            placeId: place.placeId,
            planId: plan?.id ?? null,
            createdAt: now,
          });
          await this.outbox.recordCheckIn(manager, {
            visitId,
            placeId: place.placeId,
            beneficiaryId,
            planCode: plan?.code ?? null,
            createdAt: now,
          });
        });
        return;
      } catch (error) {
        if (!isDeadlock(error) || attempt >= DEADLOCK_RETRIES) throw error;
      }
    }
  }

  private async loadGym(place: AuthenticatedPlace): Promise<GymFacts> {
    const gym = await this.repository.findGym(place.placeId);
    return gym ?? { placeId: place.placeId, placeCode: place.placeCode, active: false, plans: [] };
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
      throw invalidParameter(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
    }
    return key;
  }

  private async findLiveRecord(placeId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const record = await this.repository.findIdempotencyRecord(placeId, key);
    if (!record) return undefined;
    if (this.clock.now().getTime() - record.createdAt.getTime() < IDEMPOTENCY_TTL_MS) return record;
    await this.repository.deleteIdempotencyRecord(placeId, key);
    return undefined;
  }

  private replay(record: IdempotencyRecord, requestHash: string, key: string): void {
    if (record.requestHash !== requestHash) {
      throw invalidParameter(`Idempotency-Key ${key} was already used for a different request`);
    }
    if (record.statusCode === 204) return;
    const label = ERROR_LABELS.includes(record.errorLabel as ErrorLabel)
      ? (record.errorLabel as ErrorLabel)
      : 'internal_error';
    throw new DomainError(label, record.errorDetail ?? '', { status: record.statusCode });
  }

  private async rememberRefusal(
    placeId: string,
    key: string,
    requestHash: string,
    error: DomainError,
  ): Promise<void> {
    try {
      await this.repository.claimIdempotencyKey(
        this.dataSource,
        placeId,
        key,
        {
          requestHash,
          statusCode: error.status,
          errorLabel: error.label,
          errorDetail: error.detail.slice(0, 1000),
        },
        this.clock.now(),
      );
    } catch (claimError) {
      if (!(claimError instanceof IdempotencyKeyTaken)) throw claimError;
    }
  }
}
