import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { AuditActor } from '../auth/caller';
import { AccessAuth, AccessController, CurrentCredential, CurrentGym, GymAsActor } from './access-auth';
import { AccessCredential, AccessGym } from './access-control.repository';
import {
  AccessErrorDto,
  GymWebhooksDto,
  GymWebhooksRequestDto,
  SystemGymsDto,
} from './dto/access-control.dto';
import { WEBHOOKS_EXAMPLES } from './dto/access-examples';
import { IntegrationSetupService } from './integration-setup.service';

/** Wellhub's Integration Setup API: the gyms a key covers, and their `checkin` webhook. */
@AccessController('v1/systems/gyms')
export class IntegrationSetupController {
  constructor(private readonly setup: IntegrationSetupService) {}

  @Get()
  @AccessAuth('none')
  @ApiOperation({
    summary: 'The gyms this key covers',
    description: "A partner's key covers every gym of the partner; a place's key its own gym.",
  })
  @ApiOkResponse({ type: SystemGymsDto })
  listGyms(@CurrentCredential() credential: AccessCredential): Promise<SystemGymsDto> {
    return this.setup.gyms(credential);
  }

  @Post(':gym_id/webhooks')
  @HttpCode(204)
  @AccessAuth('path')
  @ApiOperation({
    summary: "Subscribe the gym's `checkin` webhook (Wellhub format)",
    description:
      "Replaces the gym's Wellhub-format subscription (an empty list removes it); its `/partner/webhook/*` " +
      'subscription, if any, stays as it is. Each app check-in at the gym is then POSTed to `url` with ' +
      '`X-Gympass-Signature`: HMAC-SHA1 of the exact body bytes with `secret`, hex, upper case. Delivery, ' +
      "retries, the delivery log, redelivery and the breaker are the service's own, as for every webhook; the " +
      'URL rules (https, public addresses) apply.',
  })
  @ApiBody({ type: GymWebhooksRequestDto, examples: WEBHOOKS_EXAMPLES })
  @ApiNoContentResponse({ description: 'Subscribed' })
  @ApiResponse({
    status: 400,
    type: AccessErrorDto,
    description:
      '`webhook.invalid_event`, `webhook.invalid_url`, `webhook.invalid_secret`, `webhook.invalid`',
  })
  setGymWebhooks(
    @CurrentGym() gym: AccessGym,
    @Body() body: unknown,
    @GymAsActor() actor: AuditActor,
  ): Promise<void> {
    return this.setup.replaceWebhooks(gym, body, actor);
  }

  @Get(':gym_id/webhooks')
  @AccessAuth('path')
  @ApiOperation({ summary: "The gym's Wellhub-format webhooks (the secret is never returned)" })
  @ApiOkResponse({ type: GymWebhooksDto })
  listGymWebhooks(@CurrentGym() gym: AccessGym): Promise<GymWebhooksDto> {
    return this.setup.webhooksOf(gym);
  }
}
