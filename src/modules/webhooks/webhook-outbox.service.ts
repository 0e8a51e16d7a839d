import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** What the check-in module hands over about a visit it has just inserted. */
export interface CheckInRecorded {
  visitId: string;
  placeId: string;
  beneficiaryId: number;
  planCode: string | null;
  createdAt: Date;
}

/** The outbox: webhook event and delivery rows written in the visit's own transaction. */
@Injectable()
export class WebhookOutboxService {
  // Filled in by the webhooks work (issue 4): insert the CHECK_IN_CREATED event and one delivery per subscription.
  async recordCheckIn(_manager: EntityManager, _checkIn: CheckInRecorded): Promise<void> {}
}
