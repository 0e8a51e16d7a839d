import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DomainError, invalidParameter } from '../../common/errors/domain-error';
import { ERROR_LABELS, ErrorLabel } from '../../common/errors/error-label';
import { isMessageKey, labelMessage, Message } from '../../common/i18n/messages';
import { RequestOrigin } from '../../common/logging/request-context';
import { Clock } from '../../common/time/clock';
import { BatchTransaction } from '../../database/statement-batch';
import { TransactionOptions, Transactions } from '../../database/transactions';
import { AuthenticatedPlace } from '../auth/auth.types';
import { TokenCheckInsService } from '../member-check-ins/token-check-ins.service';
import { WebhookOutboxService } from '../webhooks/delivery/webhook-outbox.service';
import { CheckInRepository, IdempotencyKeyTaken, IdempotencyRecord } from './check-in.repository';
import { cannotExist } from '../eligibility/eligibility';
import { EligibilityRepository } from '../eligibility/eligibility.repository';
import { EligibilityService, FactsNow, lockedFacts } from '../eligibility/eligibility.service';
import {
  BeneficiaryRequest,
  parseTrackUsageRequest,
  TrackUsageRequest,
} from '../eligibility/track-usage-request';

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

/**
 * Validate and register share one evaluation (EligibilityService), in the contract's order. A `token`
 * identifier names a member check-in pending at the gym: validate and register hand it to TokenCheckInsService,
 * register inside its own transaction so that idempotency keys work the same for it.
 */
@Injectable()
export class CheckInService {
  constructor(
    private readonly repository: CheckInRepository,
    private readonly admissions: EligibilityRepository,
    private readonly eligibility: EligibilityService,
    private readonly tokens: TokenCheckInsService,
    private readonly outbox: WebhookOutboxService,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
  ) {}

  /** Checks eligibility without consuming a visit; writes nothing. */
  async validate(place: AuthenticatedPlace, body: unknown): Promise<void> {
    const request = parseTrackUsageRequest(body);
    if (request.type === 'token') return this.tokens.validate(place, request);
    const beneficiary = cannotExist(request) ? null : request;
    await this.eligibility.admit(place.placeId, request, beneficiary, place);
  }

  /** Records exactly one visit, or answers why not; an Idempotency-Key replays the first outcome for 24 h. */
  async register(
    place: AuthenticatedPlace,
    body: unknown,
    origin: RequestOrigin,
    idempotencyKey?: string,
  ): Promise<void> {
    const request = parseTrackUsageRequest(body);
    const key = this.parseIdempotencyKey(idempotencyKey);
    if (key === undefined) return this.recordVisit(place, request, origin);

    const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    const replay = await this.findLiveRecord(place.placeId, key);
    if (replay) return this.replay(replay, requestHash, key);
    try {
      await this.recordVisit(place, request, origin, { key, requestHash });
    } catch (error) {
      if (!(error instanceof IdempotencyKeyTaken)) throw error;
      const first = await this.repository.findIdempotencyRecord(place.placeId, key);
      if (!first) throw new Error(`Idempotency record ${key} vanished after a duplicate-key error`);
      return this.replay(first, requestHash, key);
    }
  }

  /**
   * One transaction in two round trips: the key's claim (if any), the beneficiary's lock and the facts; then the
   * visit, its event and delivery, and the commit (see BatchTransaction; on Galera one statement per round trip).
   */
  private async recordVisit(
    place: AuthenticatedPlace,
    request: TrackUsageRequest,
    origin: RequestOrigin,
    idempotency?: { key: string; requestHash: string },
  ): Promise<void> {
    const record =
      request.type === 'token'
        ? this.tokens.registration(place, request, origin)
        : (tx: BatchTransaction) => this.registerLocked(tx, place, request, origin);
    // A token register looks its check-in up before the locks: at READ COMMITTED (see
    // TokenCheckInsService.registration).
    const options: TransactionOptions = request.type === 'token' ? { isolation: 'READ COMMITTED' } : {};
    // A transaction that loses a conflict runs again whole, claim included (see Transactions).
    const refusal = await this.transactions.batch(async (tx) => {
      if (idempotency) {
        tx.enqueue(
          this.repository.claimStatement(
            place.placeId,
            idempotency.key,
            { requestHash: idempotency.requestHash, statusCode: 204, errorLabel: null, errorDetail: null },
            this.clock.now(),
          ),
        );
      }
      try {
        await record(tx);
      } catch (error) {
        if (!idempotency || tx.ended || !(error instanceof DomainError) || error.status !== 422) throw error;
        // Commit the refusal with the claim: a concurrent repeat waiting on the key then replays it.
        await tx.commit(
          this.repository.refusalStatement(place.placeId, idempotency.key, {
            statusCode: error.status,
            errorLabel: error.label,
            errorDetail: JSON.stringify(error.detail).slice(0, 1000),
          }),
        );
        return error;
      }
      return undefined;
    }, options);
    if (refusal) throw refusal;
  }

  /**
   * Rules 2 to 9 read once the beneficiary is locked (the lock is held until commit, so registers of one
   * beneficiary queue here; the facts are the transaction's first plain read, so they see what the previous
   * holder committed), then the beneficiary's row touched (what makes registers through two Galera nodes
   * conflict), the visit and, where a webhook listens, its event, with the commit.
   */
  private async registerLocked(
    tx: BatchTransaction,
    place: AuthenticatedPlace,
    request: BeneficiaryRequest,
    origin: RequestOrigin,
  ): Promise<void> {
    let factsNow: FactsNow;
    if (cannotExist(request)) {
      [factsNow] = await tx.run(this.eligibility.factsStatement(place.placeId, null, place, 'checkIn'));
    } else {
      // The facts by the same key, read after the lock.
      const [lockedId, read] = await tx.run(
        this.admissions.lockStatement(request),
        this.eligibility.factsStatement(place.placeId, request, place, 'checkIn'),
      );
      factsNow = lockedFacts(lockedId, read);
    }
    const { beneficiaryId, plan, subscriber, at } = this.eligibility.admitOn(factsNow, request);
    await tx.commit(
      this.admissions.touchStatement(beneficiaryId),
      this.admissions.insertVisitStatement({
        beneficiaryId,
        placeId: place.placeId,
        planId: plan?.id ?? null,
        createdAt: at,
      }),
      // Read with the rules in the same statement: no subscriber, no event.
      ...(subscriber
        ? this.outbox.checkInStatements(
            {
              placeId: place.placeId,
              beneficiaryId,
              planCode: plan?.code ?? null,
              createdAt: at,
              requestId: origin.requestId,
            },
            subscriber,
          )
        : []),
    );
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
