import { CanActivate, Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { RequestOrigin } from '../../common/logging/request-context';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MemberCheckInsService } from '../member-check-ins/member-check-ins.service';
import { planIdOf } from '../partners/product-id';
import { wellhubCheckInBody } from '../webhooks/delivery/webhook-outbox.service';
import { AccessControlRepository, AccessGym } from './access-control.repository';
import { INVALID_KEY, parseSimulateRequest } from './access-requests';
import { asAccessRefusal, memberNotFound } from './access-control.service';

/** Off (ACCESS_SANDBOX unset), the sandbox's route is not there: 404 before any credential is looked at. */
@Injectable()
export class SandboxEnabledGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (this.config.accessSandbox) return true;
    throw new DomainError('not_found', message('access.sandboxOff'));
  }
}

/**
 * `POST /helper/v1/gyms/:gym_id/simulate/checkins`, for integrators testing their software: makes the member's
 * check-in at the gym as the app does (the member API's own path: the rules, the replaced check-in, the
 * events, the Wellhub-format `checkin` among them) and answers that event's body, as sent when the gym is
 * subscribed.
 */
@Injectable()
export class SandboxService {
  constructor(
    private readonly repository: AccessControlRepository,
    private readonly memberCheckIns: MemberCheckInsService,
  ) {}

  /** The event's body, as JSON text. */
  async simulateCheckIn(gym: AccessGym, body: unknown, origin: RequestOrigin): Promise<string> {
    const request = parseSimulateRequest(body);
    let planCode: string | undefined;
    if (request.productId !== undefined) {
      const planId = planIdOf(request.productId);
      planCode = planId === undefined ? undefined : await this.repository.planCode(gym.placeId, planId);
      if (!planCode) {
        throw new DomainError(
          'invalid_plan',
          message('access.productNotFound', { product: request.productId }),
          {
            status: 400,
            accessKey: INVALID_KEY,
          },
        );
      }
    }
    const row = await this.memberCheckIns
      .make(
        {
          type: 'member_number',
          identifier: request.memberNumber,
          service_provider_code: gym.placeCode,
          service_provider_plan_code: planCode,
        },
        origin.requestId,
      )
      .catch((error: unknown) => {
        if (error instanceof DomainError && error.label === 'not_exists')
          throw memberNotFound(request.memberNumber);
        throw asAccessRefusal(error);
      });
    const facts = await this.repository.simulatedFacts(gym.placeId, row.memberNumber, row.startedAt);
    if (facts.stored) return facts.stored;
    return JSON.stringify(
      wellhubCheckInBody(
        { placeId: gym.placeId, planId: row.planId, startedAt: row.startedAt, expiresAt: row.expiresAt },
        { ...facts, gymId: gym.gymId, placeName: gym.placeName },
      ),
    );
  }
}
