import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { generateEventId } from './webhook-policy';
import { WebhooksRepository } from './webhooks.repository';
import { CHECK_IN_CREATED } from './webhooks.constants';

/** What the check-in module hands over about a visit it has just inserted. */
export interface CheckInRecorded {
  visitId: string;
  placeId: string;
  beneficiaryId: number;
  planCode: string | null;
  createdAt: Date;
}

/**
 * The outbox: event and delivery rows written in the visit's own transaction, so that a check-in never
 * depends on Redis and no event is lost. The relay hands the rows to the queue afterwards.
 */
@Injectable()
export class WebhookOutboxService {
  constructor(
    private readonly repository: WebhooksRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Called for visits at a place with a CHECKIN subscription (the check-in query says which). */
  async recordCheckIn(manager: EntityManager, checkIn: CheckInRecorded): Promise<void> {
    const facts = await this.repository.checkInFacts(
      manager,
      checkIn.placeId,
      checkIn.beneficiaryId,
      'CHECKIN',
    );
    if (!facts?.subscriptionId || !facts.url) return;
    const zone = this.config.businessTimezone;
    const startedAt = formatInZone(checkIn.createdAt, zone);
    const id = generateEventId();
    const body = {
      id,
      type: CHECK_IN_CREATED,
      created_at: startedAt,
      check_in: {
        id: checkIn.visitId,
        started_at: startedAt,
        expires_at: formatInZone(
          new Date(checkIn.createdAt.getTime() + this.config.recentCheckinWindowSeconds * 1000),
          zone,
        ),
        plan_code: checkIn.planCode,
      },
      place: { place: checkIn.placeId, name: facts.placeName, code: facts.placeCode },
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
      placeId: checkIn.placeId,
      type: CHECK_IN_CREATED,
      payload: JSON.stringify(body),
      createdAt: checkIn.createdAt,
      subscriptionId: facts.subscriptionId,
      url: facts.url,
    });
  }
}
