import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuditActor } from '../auth/caller';
import { parseWebhookUrl } from '../webhooks/webhook-policy';
import { WebhooksService } from '../webhooks/webhooks.service';
import { AccessControlRepository, AccessCredential, AccessGym } from './access-control.repository';
import { parseGymWebhooks } from './access-requests';
import { GymWebhooksDto, SystemGymsDto } from './dto/access-control.dto';

/**
 * The integration-setup routes: the gyms a key covers, and a gym's Wellhub-format `checkin` subscription,
 * kept beside (never instead of) its `/partner/webhook/*` one. The URL follows the rules of every webhook.
 */
@Injectable()
export class IntegrationSetupService {
  constructor(
    private readonly repository: AccessControlRepository,
    private readonly webhooks: WebhooksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async gyms(credential: AccessCredential): Promise<SystemGymsDto> {
    const gyms = await this.repository.gymsOf(credential);
    return { gyms: gyms.map((gym) => ({ id: gym.gymId, enabled: gym.active })) };
  }

  async webhooksOf(gym: AccessGym): Promise<GymWebhooksDto> {
    const subscription = await this.webhooks.wellhubSubscription(gym.placeId);
    return { webhooks: subscription ? [{ event: 'checkin', url: subscription.url }] : [] };
  }

  async replaceWebhooks(gym: AccessGym, body: unknown, actor: AuditActor): Promise<void> {
    const wanted = parseGymWebhooks(body);
    let url: string | undefined;
    try {
      url = wanted ? parseWebhookUrl(wanted.url, this.config.webhookAllowPrivateNetworks) : undefined;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new DomainError(error.label, error.detail, { accessKey: 'webhook.invalid_url' });
    }
    await this.webhooks.replaceWellhubSubscription(
      gym,
      wanted && url ? { url, secret: wanted.secret, additionalData: wanted.additionalData } : null,
      actor,
    );
  }
}
