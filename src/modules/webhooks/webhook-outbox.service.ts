import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { currentRequestId } from '../../common/logging/request-context';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { generateEventId } from './webhook-policy';
import { SubscribedFacts, WebhooksRepository } from './webhooks.repository';
import { CHECK_IN_CREATED, CheckInEventType } from './webhooks.constants';

/** What the check-in module hands over about a visit it has just inserted. */
export interface CheckInRecorded {
  visitId: string;
  placeId: string;
  beneficiaryId: number;
  planCode: string | null;
  createdAt: Date;
}

/** What the member check-ins module hands over about a member check-in that was created, confirmed or cancelled. */
export interface MemberCheckInChanged {
  type: CheckInEventType;
  checkInId: string;
  placeId: string;
  beneficiaryId: number;
  token: string;
  status: 'pending' | 'validated' | 'cancelled';
  planCode: string | null;
  startedAt: Date;
  expiresAt: Date;
  validatedAt?: Date;
  cancelledAt?: Date;
  cancelReason?: 'member' | 'replaced';
  /** CHECK_IN_CREATED only: the capability token of its `endpoint`. */
  confirmationToken?: string;
  /** When it happened: the event's `created_at`. */
  at: Date;
}

/** The path of the confirmation endpoint, under PUBLIC_BASE_URL. */
export const CONFIRMATION_PATH = '/api/v1/webhook_confirmations';

/**
 * The outbox: event and delivery rows written in the visit's (or the member check-in's) own transaction, so
 * that a check-in never depends on Redis and no event is lost. The relay hands the rows to the queue afterwards.
 */
@Injectable()
export class WebhookOutboxService {
  constructor(
    private readonly repository: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Called for visits at a place with a CHECKIN subscription (the check-in query says which). `subscriber`,
   * when the caller read it in its transaction already, saves reading it again.
   */
  async recordCheckIn(
    manager: EntityManager,
    checkIn: CheckInRecorded,
    subscriber?: SubscribedFacts,
  ): Promise<void> {
    const facts = subscriber ?? (await this.subscribedFacts(manager, checkIn.placeId, checkIn.beneficiaryId));
    if (!facts) return;
    const expiresAt = new Date(checkIn.createdAt.getTime() + this.config.recentCheckinWindowSeconds * 1000);
    await this.insert(manager, facts, {
      type: CHECK_IN_CREATED,
      placeId: checkIn.placeId,
      at: checkIn.createdAt,
      checkIn: {
        id: checkIn.visitId,
        // A visit the gym recorded itself is validated as it happens.
        status: 'validated',
        started_at: this.time(checkIn.createdAt),
        expires_at: this.time(expiresAt),
        plan_code: checkIn.planCode,
      },
    });
  }

  /** CHECK_IN_CREATED (with its `endpoint`), CHECK_IN_VALIDATED or CHECK_IN_CANCELLED of a member check-in. */
  async recordMemberCheckIn(
    manager: EntityManager,
    change: MemberCheckInChanged,
    subscriber?: SubscribedFacts,
  ): Promise<void> {
    const facts = subscriber ?? (await this.subscribedFacts(manager, change.placeId, change.beneficiaryId));
    if (!facts) return;
    await this.insert(manager, facts, {
      type: change.type,
      placeId: change.placeId,
      at: change.at,
      endpoint:
        change.confirmationToken === undefined
          ? undefined
          : `${this.config.publicBaseUrl}${CONFIRMATION_PATH}/${change.confirmationToken}`,
      checkIn: {
        id: change.checkInId,
        token: change.token,
        status: change.status,
        started_at: this.time(change.startedAt),
        expires_at: this.time(change.expiresAt),
        ...(change.validatedAt && { validated_at: this.time(change.validatedAt) }),
        ...(change.cancelledAt && { cancelled_at: this.time(change.cancelledAt) }),
        ...(change.cancelReason && { cancel_reason: change.cancelReason }),
        plan_code: change.planCode,
      },
    });
  }

  private async subscribedFacts(
    manager: EntityManager,
    placeId: string,
    beneficiaryId: number,
  ): Promise<SubscribedFacts | undefined> {
    const facts = await this.repository.checkInFacts(manager, placeId, beneficiaryId, 'CHECKIN');
    if (!facts?.subscriptionId || !facts.url) return undefined;
    return facts as SubscribedFacts;
  }

  private async insert(
    manager: EntityManager,
    facts: SubscribedFacts,
    event: {
      type: CheckInEventType;
      placeId: string;
      at: Date;
      endpoint?: string;
      checkIn: Record<string, unknown>;
    },
  ): Promise<void> {
    const id = generateEventId();
    const body = {
      id,
      type: event.type,
      created_at: this.time(event.at),
      ...(event.endpoint && { endpoint: event.endpoint }),
      check_in: event.checkIn,
      place: { place: event.placeId, name: facts.placeName, code: facts.placeCode },
      user: {
        name: facts.name,
        email: facts.email,
        phone: facts.phone,
        document_number: facts.cpf,
        document_type: 'cpf',
        code: facts.code,
      },
    };
    await this.repository.insertEvent(manager, {
      id,
      placeId: event.placeId,
      type: event.type,
      payload: JSON.stringify(body),
      createdAt: event.at,
      subscriptionId: facts.subscriptionId,
      url: facts.url,
      requestId: currentRequestId() ?? null,
    });
  }

  private time(date: Date): string {
    return formatInZone(date, this.config.businessTimezone);
  }
}
