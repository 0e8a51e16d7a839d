import { Inject, Injectable } from '@nestjs/common';
import { formatInZone } from '../../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { generateEventId } from '../webhook-policy';
import { statement, Statement } from '../../../database/statement-batch';
import { NewEvent, SubscribedFacts, WebhooksRepository, WellhubSubscriber } from '../webhooks.repository';
import { productIdOf } from '../../partners/product-id';
import { CHECK_IN_CREATED, CheckInEventType } from '../webhooks.constants';
import { CheckInEventDto, WebhookEventCheckInDto } from '../dto/webhook-events.dto';

/** What the check-in module hands over about a visit it has just inserted. */
export interface CheckInRecorded {
  placeId: string;
  beneficiaryId: number;
  planCode: string | null;
  createdAt: Date;
  /** The request that recorded it (see RequestOrigin). */
  requestId: string | null;
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
  /** The request that made the change; null for the service's own (see RequestOrigin). */
  requestId: string | null;
}

/** A member check-in just made in the app, as a Wellhub-format `checkin` event tells it. */
export interface WellhubCheckIn {
  placeId: string;
  planId: number | null;
  startedAt: Date;
  expiresAt: Date;
  /** The request that made it (see RequestOrigin). */
  requestId: string | null;
}

/** The event type of the Wellhub-format subscription's events. */
export const WELLHUB_CHECKIN_EVENT = 'checkin';

/**
 * The body of a Wellhub-format `checkin` event (CONTRACT.md): the member's number as `unique_token`, the first
 * word of the name as `first_name` and the rest as `last_name`; `email` and `phone_number` only when the
 * subscription asked for additional data. Times in epoch seconds.
 */
export function wellhubCheckInBody(
  checkIn: Omit<WellhubCheckIn, 'requestId'>,
  facts: Omit<WellhubSubscriber, 'subscriptionId' | 'url'>,
): Record<string, unknown> {
  const [firstName = '', ...rest] = facts.name.trim().split(/\s+/);
  const planName = checkIn.planId === null ? undefined : facts.planNames.get(checkIn.planId);
  return {
    event_type: WELLHUB_CHECKIN_EVENT,
    event_data: {
      user: {
        unique_token: facts.memberNumber,
        first_name: firstName,
        last_name: rest.join(' '),
        ...(facts.additionalData && { email: facts.email, phone_number: facts.phone }),
      },
      gym: {
        id: facts.gymId,
        title: facts.placeName,
        product:
          checkIn.planId === null ? null : { id: productIdOf(checkIn.planId), description: planName ?? null },
      },
      timestamp: Math.floor(checkIn.startedAt.getTime() / 1000),
      expires_at: Math.floor(checkIn.expiresAt.getTime() / 1000),
    },
  };
}

/** Stands for the visit's id in a body until the database puts it there; no input can produce it first. */
const VISIT_ID = '\u0000visit-id\u0000';

/**
 * The body's text on either side of the visit's id (a JSON string, its quotes kept in the parts). The first
 * occurrence is the id's: only the event's own fields (id, type, created_at, endpoint) come before `check_in`.
 */
function aroundVisitId(text: string): { beforeVisitId: string; afterVisitId: string } {
  const marker = JSON.stringify(VISIT_ID);
  const at = text.indexOf(marker);
  if (at < 0) throw new Error('The event body has no place for the visit id');
  return { beforeVisitId: text.slice(0, at + 1), afterVisitId: text.slice(at + marker.length - 1) };
}

/** The path of the confirmation endpoint, under PUBLIC_BASE_URL. */
export const CONFIRMATION_PATH = '/api/v1/webhook_confirmations';

/**
 * The outbox: each event's delivery row, which carries the event, written in the visit's (or the member
 * check-in's) own transaction, so that a check-in never depends on Redis and no event is lost. The poller starts
 * a run for them afterwards (DeliveryPoller), or the run that holds the endpoint reads them with its next batch.
 */
@Injectable()
export class WebhookOutboxService {
  constructor(
    private readonly repository: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The CHECK_IN_CREATED of a visit inserted just before, in the same round trip: the visit's id, which only
   * the database knows yet, goes into the body there (see NewEvent's payload).
   */
  checkInStatements(checkIn: CheckInRecorded, subscriber: SubscribedFacts): Statement[] {
    const expiresAt = new Date(checkIn.createdAt.getTime() + this.config.recentCheckinWindowSeconds * 1000);
    const event = this.event(subscriber, {
      type: CHECK_IN_CREATED,
      placeId: checkIn.placeId,
      at: checkIn.createdAt,
      requestId: checkIn.requestId,
      checkIn: {
        id: VISIT_ID,
        // A visit the gym recorded itself is validated as it happens.
        status: 'validated',
        started_at: this.time(checkIn.createdAt),
        expires_at: this.time(expiresAt),
        plan_code: checkIn.planCode,
      },
    });
    return this.repository.eventStatements({ ...event, payload: aroundVisitId(event.payload as string) });
  }

  /** CHECK_IN_CREATED (with its `endpoint`), CHECK_IN_VALIDATED or CHECK_IN_CANCELLED of a member check-in. */
  memberCheckInStatements(change: MemberCheckInChanged, subscriber: SubscribedFacts): Statement[] {
    return this.repository.eventStatements(this.memberCheckInEvent(change, subscriber));
  }

  private memberCheckInEvent(change: MemberCheckInChanged, facts: SubscribedFacts): NewEvent {
    return this.event(facts, {
      type: change.type,
      placeId: change.placeId,
      at: change.at,
      requestId: change.requestId,
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

  /**
   * The Wellhub-format `checkin` event of a member check-in just made, to the place's Wellhub-format
   * subscription, in the check-in's transaction. The body is stored as sent: its signature is computed over
   * these bytes at each attempt.
   */
  wellhubCheckInStatements(checkIn: WellhubCheckIn, subscriber: WellhubSubscriber): Statement[] {
    return this.repository.eventStatements({
      id: generateEventId(),
      placeId: checkIn.placeId,
      type: WELLHUB_CHECKIN_EVENT,
      payload: JSON.stringify(wellhubCheckInBody(checkIn, subscriber)),
      createdAt: checkIn.startedAt,
      subscriptionId: subscriber.subscriptionId,
      url: subscriber.url,
      requestId: checkIn.requestId,
    });
  }

  /** What an event about the beneficiary at the place needs; undefined when no CHECKIN subscription listens. */
  subscriberStatement(placeId: string, beneficiaryId: number): Statement<SubscribedFacts | undefined> {
    const facts = this.repository.checkInFactsStatement(placeId, beneficiaryId);
    return statement(facts.sql, facts.values, (result) => {
      const read = facts.read(result);
      return read?.subscriptionId && read.url ? (read as SubscribedFacts) : undefined;
    });
  }

  private event(
    facts: SubscribedFacts,
    event: {
      type: CheckInEventType;
      placeId: string;
      at: Date;
      endpoint?: string;
      checkIn: WebhookEventCheckInDto;
      requestId: string | null;
    },
  ): NewEvent {
    const id = generateEventId();
    const body: CheckInEventDto = {
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
    return {
      id,
      placeId: event.placeId,
      type: event.type,
      payload: JSON.stringify(body),
      createdAt: event.at,
      subscriptionId: facts.subscriptionId,
      url: facts.url,
      requestId: event.requestId,
    };
  }

  private time(date: Date): string {
    return formatInZone(date, this.config.businessTimezone);
  }
}
