import { Inject, Injectable } from '@nestjs/common';
import { v7 as timeOrderedUuid } from 'uuid';
import { DomainError, invalidParameter, notFound } from '../../common/errors/domain-error';
import { isValidCpf, normalizeCpf } from '../../common/domain/cpf';
import { message } from '../../common/i18n/messages';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { BatchTransaction, Statement } from '../../database/statement-batch';
import { Transactions } from '../../database/transactions';
import { Caller } from '../auth/caller';
import { BeneficiariesRepository } from '../beneficiaries/beneficiaries.repository';
import { EligibilityRepository } from '../eligibility/eligibility.repository';
import { cannotExist } from '../eligibility/eligibility';
import { Admission, EligibilityService, FactsNow, lockedFacts } from '../eligibility/eligibility.service';
import {
  BeneficiaryRequest,
  BENEFICIARY_IDENTIFIER_TYPES,
  parseTrackUsageRequest,
} from '../eligibility/track-usage-request';
import { PartnersRepository, PlaceRef } from '../partners/partners.repository';
import { MemberCheckInChanged, WebhookOutboxService } from '../webhooks/delivery/webhook-outbox.service';
import type { SubscribedFacts } from '../webhooks/webhooks.repository';
import { CHECK_IN_CANCELLED, CHECK_IN_CREATED } from '../webhooks/webhooks.constants';
import { CheckInTokenGenerator, generateConfirmationToken, hashConfirmationToken } from './check-in-tokens';
import { MemberCheckInDto } from './dto/member-check-ins.dto';
import {
  BeneficiaryCheckInDto,
  BeneficiaryCheckInPageDto,
  CHECK_INS_PAGE_SIZE,
  PlaceCheckInDto,
  PlaceCheckInPageDto,
  PlaceCheckInsQueryDto,
} from './dto/place-check-ins.dto';
import { CancelReason } from './entities/member-check-in.entity';
import { assertPending, statusAt } from './member-check-in-status';
import { CheckInRow, MemberCheckInsRepository, PendingTokenTaken } from './member-check-ins.repository';
import { RequestOrigin } from '../../common/logging/request-context';
import { isUuid } from '../../common/validation/identifiers';

/** Draws of a 6-digit token before giving up; a gym would need ~10^5 pending check-ins to exhaust them. */
const MAX_TOKEN_DRAWS = 20;

/** A check-in with the moment its status is read at (a pending one past its time reads as expired). */
export interface CheckInAt {
  row: CheckInRow;
  now: Date;
}

/**
 * The member API: the platform's app backend creates a member's check-in at a gym (rules 2 to 9 there, the same
 * labels as a register), reads it, and cancels it. A check-in is not a visit: it consumes nothing until the gym
 * confirms it. A new check-in replaces the member's pending one (CHECK_IN_CANCELLED, `cancel_reason` replaced).
 */
@Injectable()
export class MemberCheckInsService {
  constructor(
    private readonly repository: MemberCheckInsRepository,
    private readonly partners: PartnersRepository,
    private readonly beneficiaries: BeneficiariesRepository,
    private readonly checkIns: EligibilityRepository,
    private readonly eligibility: EligibilityService,
    private readonly outbox: WebhookOutboxService,
    private readonly tokens: CheckInTokenGenerator,
    private readonly clock: Clock,
    private readonly transactions: Transactions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(body: unknown, origin: RequestOrigin): Promise<MemberCheckInDto> {
    const row = await this.make(body, origin.requestId);
    return MemberCheckInDto.of({ row, now: row.startedAt }, this.config.businessTimezone);
  }

  /** The check-in `body` asks for, made (its events naming the request `requestId`): what `create` answers, as a row. */
  async make(body: unknown, requestId: string | null): Promise<CheckInRow> {
    const request = parseTrackUsageRequest(body, BENEFICIARY_IDENTIFIER_TYPES);
    if (request.serviceProviderCode === undefined) {
      throw invalidParameter('field.required', { field: 'service_provider_code' });
    }
    const place = await this.partners.findPlaceByCode(request.serviceProviderCode);
    if (!place) {
      throw new DomainError(
        'invalid_gym',
        message('memberCheckIn.gymNotFound', { code: request.serviceProviderCode }),
      );
    }
    // Time-ordered: new check-ins go to the end of the primary key.
    const id = timeOrderedUuid();
    let token = this.tokens.next();
    for (let draw = 1; ; draw++) {
      try {
        // Creations racing at one gym may deadlock on the index they share; the loser runs again.
        return await this.transactions.batch((tx) =>
          this.createLocked(tx, { id, place, request, token, requestId }),
        );
      } catch (error) {
        if (!(error instanceof PendingTokenTaken) || draw >= MAX_TOKEN_DRAWS) throw error;
        // The whole transaction is rolled back before another try, so the failed insert's locks never wait on
        // another creation's. A pending check-in past its time no longer needs its token: it gives it up.
        const released = await this.repository.releaseExpiredToken(place.id, token, this.clock.now());
        if (!released) token = this.tokens.next();
      }
    }
  }

  async get(id: string): Promise<MemberCheckInDto> {
    return MemberCheckInDto.of(await this.find(id), this.config.businessTimezone);
  }

  /** Cancels a pending check-in; `check_in_not_available` once it is confirmed, cancelled, replaced or expired. */
  async cancel(id: string, origin: RequestOrigin): Promise<MemberCheckInDto> {
    const { row } = await this.find(id);
    await this.transactions.batch(async (tx) => {
      const [, state, subscriber] = await tx.run(
        this.checkIns.lockStatement({ id: row.beneficiaryId }),
        this.repository.lockStatement(row.id),
        this.outbox.subscriberStatement(row.placeId, row.beneficiaryId),
      );
      const now = this.clock.now();
      assertPending(state, now, this.config.businessTimezone, 'cancel');
      await tx.commit(
        this.checkIns.touchStatement(row.beneficiaryId),
        ...this.cancelStatements(row, now, 'member', subscriber, origin.requestId),
      );
    });
    return this.get(id);
  }

  /** A place's member check-ins, newest first, for the control panel. */
  /** A place's check-ins for the control panel; a place outside the caller's scope is not found. */
  async listOfPlace(
    caller: Caller,
    placeId: string,
    query: PlaceCheckInsQueryDto,
  ): Promise<PlaceCheckInPageDto> {
    const place = await this.partners.findPlace(placeId);
    if (!place || !caller.reachesPlace(place)) {
      throw notFound('controlPanel.placeNotFound', { id: placeId });
    }
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.page_size ?? CHECK_INS_PAGE_SIZE);
    const now = this.clock.now();
    const { rows, total } = await this.repository.listOfPlace(
      placeId,
      query.status,
      now,
      (page - 1) * pageSize,
      pageSize,
    );
    return {
      data: rows.map((row) => PlaceCheckInDto.of(row, now, this.config.businessTimezone)),
      page,
      page_size: pageSize,
      total,
    };
  }

  /** A beneficiary's check-ins (by CPF or code), newest first, for the control panel's beneficiary page. */
  async listOfBeneficiary(
    identifier: string,
    query: PlaceCheckInsQueryDto,
  ): Promise<BeneficiaryCheckInPageDto> {
    const cpf = normalizeCpf(identifier);
    const beneficiaryId = isValidCpf(cpf)
      ? await this.beneficiaries.findBeneficiaryId({ cpf })
      : /^[A-Za-z0-9]{8}$/.test(identifier)
        ? await this.beneficiaries.findBeneficiaryId({ code: identifier.toUpperCase() })
        : undefined;
    if (beneficiaryId === undefined) throw notFound('controlPanel.beneficiaryNotFound');
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.page_size ?? CHECK_INS_PAGE_SIZE);
    const now = this.clock.now();
    const { rows, total } = await this.repository.listOfBeneficiary(
      beneficiaryId,
      query.status,
      now,
      (page - 1) * pageSize,
      pageSize,
    );
    return {
      data: rows.map((row) => BeneficiaryCheckInDto.of(row, now, this.config.businessTimezone)),
      page,
      page_size: pageSize,
      total,
    };
  }

  private async find(id: string): Promise<CheckInAt> {
    const row = isUuid(id) ? await this.repository.findById(id) : undefined;
    if (!row) throw notFound('memberCheckIn.notFound', { id });
    return { row, now: this.clock.now() };
  }

  /**
   * The member's pending check-in gives way to the new one: cancelled as replaced (with its event, at its own
   * gym), or marked expired.
   */
  private async retireStatements(
    tx: BatchTransaction,
    pending: CheckInRow,
    admission: Admission,
    placeId: string,
    requestId: string | null,
  ): Promise<Statement[]> {
    if (statusAt(pending, admission.at) === 'expired')
      return [this.repository.markExpiredStatement(pending.id)];
    const [subscriber] =
      pending.placeId === placeId
        ? [admission.subscriber]
        : await tx.run(this.outbox.subscriberStatement(pending.placeId, pending.beneficiaryId));
    return this.cancelStatements(pending, admission.at, 'replaced', subscriber, requestId);
  }

  private cancelStatements(
    row: CheckInRow,
    now: Date,
    reason: CancelReason,
    subscriber: SubscribedFacts | undefined,
    requestId: string | null,
  ): Statement[] {
    const event: MemberCheckInChanged = {
      type: CHECK_IN_CANCELLED,
      checkInId: row.id,
      placeId: row.placeId,
      beneficiaryId: row.beneficiaryId,
      token: row.token,
      status: 'cancelled',
      planCode: row.planCode,
      startedAt: row.startedAt,
      expiresAt: row.expiresAt,
      cancelledAt: now,
      cancelReason: reason,
      at: now,
      requestId,
    };
    return [
      this.repository.markCancelledStatement(row.id, now, reason),
      ...(subscriber ? this.outbox.memberCheckInStatements(event, subscriber) : []),
    ];
  }

  /**
   * Under the beneficiary's lock: the rules and the member's pending check-in read (one round trip), then the
   * beneficiary's row touched (see EligibilityRepository.touchStatement), the pending one retired, the new one and
   * its event, and the commit (another).
   */
  private async createLocked(
    tx: BatchTransaction,
    {
      id,
      place,
      request,
      token,
      requestId,
    }: { id: string; place: PlaceRef; request: BeneficiaryRequest; token: string; requestId: string | null },
  ): Promise<CheckInRow> {
    let factsNow: FactsNow;
    let pending: CheckInRow | undefined;
    if (cannotExist(request)) {
      [factsNow] = await tx.run(
        this.eligibility.factsStatement(place.id, null, undefined, 'checkInAndWellhub'),
      );
    } else {
      // The beneficiary's lock first, as in a register: creations, confirmations and visits of one member queue.
      const [lockedId, read, found] = await tx.run(
        this.checkIns.lockStatement(request),
        this.eligibility.factsStatement(place.id, request, undefined, 'checkInAndWellhub'),
        this.repository.pendingOfStatement(request),
      );
      factsNow = lockedFacts(lockedId, read);
      pending = lockedId === undefined ? undefined : found;
    }
    const admission = this.eligibility.admitOn(factsNow, request);
    const retire = pending ? await this.retireStatements(tx, pending, admission, place.id, requestId) : [];
    const created = this.insertStatements({ id, place, admission, token, requestId });
    try {
      await tx.commit(
        this.checkIns.touchStatement(admission.beneficiaryId),
        ...retire,
        ...created.statements,
      );
    } catch (error) {
      if (this.repository.isPendingTokenTaken(error)) throw new PendingTokenTaken();
      throw error;
    }
    // Everything a reader of it would see: answered without reading it back.
    return {
      ...created.row,
      beneficiaryCode: String(factsNow.facts.beneficiary?.code),
      memberNumber: String(factsNow.facts.beneficiary?.memberNumber),
    };
  }

  /** The new pending check-in and its event; and the check-in as the statements write it. */
  private insertStatements({
    id,
    place,
    admission,
    token,
    requestId,
  }: {
    id: string;
    place: PlaceRef;
    admission: Admission;
    token: string;
    requestId: string | null;
  }): { statements: Statement[]; row: Omit<CheckInRow, 'beneficiaryCode' | 'memberNumber'> } {
    const confirmationToken = generateConfirmationToken();
    const startedAt = admission.at;
    const expiresAt = new Date(startedAt.getTime() + this.config.checkInConfirmationWindowSeconds * 1000);
    const event: MemberCheckInChanged = {
      type: CHECK_IN_CREATED,
      checkInId: id,
      placeId: place.id,
      beneficiaryId: admission.beneficiaryId,
      token,
      status: 'pending',
      planCode: admission.plan?.code ?? null,
      startedAt,
      expiresAt,
      confirmationToken,
      at: startedAt,
      requestId,
    };
    const row = {
      id,
      beneficiaryId: admission.beneficiaryId,
      placeId: place.id,
      planId: admission.plan?.id ?? null,
      token,
      status: 'pending' as const,
      cancelReason: null,
      startedAt,
      expiresAt,
      validatedAt: null,
      cancelledAt: null,
      planCode: admission.plan?.code ?? null,
      placeName: place.name,
      placeCode: place.code,
    };
    return {
      statements: [
        this.repository.insertStatement({
          ...row,
          confirmationTokenHash: hashConfirmationToken(confirmationToken),
        }),
        ...(admission.subscriber ? this.outbox.memberCheckInStatements(event, admission.subscriber) : []),
        ...(admission.wellhub
          ? this.outbox.wellhubCheckInStatements(
              { placeId: place.id, planId: row.planId, startedAt, expiresAt, requestId },
              admission.wellhub,
            )
          : []),
      ],
      row,
    };
  }
}
