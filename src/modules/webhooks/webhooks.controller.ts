import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { ApiSentEvents } from '../../common/swagger/openapi-31';
import { BearerAuth, CurrentPlace, PlaceAsActor } from '../auth/auth.decorators';
import { AuthenticatedPlace } from '../auth/auth.types';
import { AuditActor } from '../auth/caller';
import {
  AcceptedDto,
  DeliveriesQueryDto,
  DeliveryPageDto,
  WebhookCreatedResponseDto,
  WebhookDeletedResponseDto,
  WebhookListDto,
  WebhookRequestDto,
  WebhookUpdatedResponseDto,
} from './dto/webhooks.dto';
import { CheckInEventDto, TestEventDto } from './dto/webhook-events.dto';
import { WebhooksService } from './webhooks.service';

const SIGNING = `Deliveries follow Standard Webhooks: a JSON POST with \`webhook-id\` (the event id, the same on every
retry), \`webhook-timestamp\` and \`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">\` keyed with the
\`whsec_\` secret. Answer 2xx within 15 s; redirects are not followed. Retries after 5 s, 5 min, 30 min, 2 h, 5 h,
10 h and 10 h (±20%; \`Retry-After\` honoured); \`410 Gone\` stops them. Receivers dedupe on \`webhook-id\`.`;

const TYPE_PARAM = { name: 'type', example: 'CHECKIN', enum: ['CHECKIN'] };

@ApiTags('Webhooks')
@ApiSentEvents(
  {
    name: 'checkInEvent',
    summary: 'A check-in event, to a CHECKIN subscription',
    description: `CHECK_IN_CREATED (a visit the gym recorded, or a member's app check-in with its \`endpoint\`), CHECK_IN_VALIDATED, CHECK_IN_CANCELLED.\n\n${SIGNING}`,
    body: CheckInEventDto,
  },
  {
    name: 'testEvent',
    summary: 'A test event, from POST /partner/webhook/test/{type}',
    description: SIGNING,
    body: TestEventDto,
  },
)
@Controller('partner/webhook')
@BearerAuth()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post('create')
  @ApiOperation({
    summary: 'Subscribe a URL to an event type',
    description: `One URL per type per gym.\n\n${SIGNING}`,
  })
  @ApiBody({ type: WebhookRequestDto })
  @ApiCreatedResponse({ type: WebhookCreatedResponseDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  create(
    @CurrentPlace() place: AuthenticatedPlace,
    @PlaceAsActor() actor: AuditActor,
    @Body() body: WebhookRequestDto,
  ): Promise<WebhookCreatedResponseDto> {
    return this.webhooks.create(place, body, actor);
  }

  @Put('update')
  @ApiOperation({ summary: "Change a subscription's URL (the secret stays)" })
  @ApiBody({ type: WebhookRequestDto })
  @ApiOkResponse({ type: WebhookUpdatedResponseDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(
    @CurrentPlace() place: AuthenticatedPlace,
    @PlaceAsActor() actor: AuditActor,
    @Body() body: WebhookRequestDto,
  ): Promise<WebhookUpdatedResponseDto> {
    return this.webhooks.update(place, body, actor);
  }

  @Delete('delete/:type')
  @ApiOperation({ summary: 'Remove a subscription' })
  @ApiParam(TYPE_PARAM)
  @ApiOkResponse({ type: WebhookDeletedResponseDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  remove(
    @CurrentPlace() place: AuthenticatedPlace,
    @PlaceAsActor() actor: AuditActor,
    @Param('type') type: string,
  ): Promise<WebhookDeletedResponseDto> {
    return this.webhooks.remove(place, type, actor);
  }

  @Get('get')
  @ApiOperation({ summary: "The gym's subscriptions (secrets are never listed)" })
  @ApiOkResponse({ type: WebhookListDto })
  list(@CurrentPlace() place: AuthenticatedPlace): Promise<WebhookListDto> {
    return this.webhooks.list(place);
  }

  @Get('deliveries')
  @ApiOperation({ summary: 'The delivery log: event, URL, status, attempts, last answer' })
  @ApiOkResponse({ type: DeliveryPageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  listWebhookDeliveries(
    @CurrentPlace() place: AuthenticatedPlace,
    @Query() query: DeliveriesQueryDto,
  ): Promise<DeliveryPageDto> {
    return this.webhooks.deliveries(place, query);
  }

  @Post('deliveries/:id/redeliver')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a delivered or failed event again (same webhook-id)',
    description:
      'One more attempt, numbered after the earlier ones; should it fail, its retries take the schedule up from ' +
      'the attempts the delivery has made (a delivery that used every attempt gets that one only). 422 while ' +
      'the delivery is still on its way.',
  })
  @ApiAcceptedResponse({ type: AcceptedDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  redeliverWebhookDelivery(
    @CurrentPlace() place: AuthenticatedPlace,
    @PlaceAsActor() actor: AuditActor,
    @Param('id') id: string,
  ): Promise<AcceptedDto> {
    return this.webhooks.redeliver(place, id, actor);
  }

  @Post('test/:type')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a TEST event to the subscription through the same pipeline',
    description:
      'At most WEBHOOK_TEST_EVENTS_PER_MINUTE (10) test events per place over a sliding minute; past it, 429 ' +
      '`rate_limited` with `Retry-After` (the seconds until the oldest of the minute leaves it).',
  })
  @ApiParam(TYPE_PARAM)
  @ApiAcceptedResponse({ type: AcceptedDto })
  @ApiErrorResponses(
    { 404: ['not_found'], 422: ['invalid_parameter'], 429: ['rate_limited'] },
    { rate_limited: 'Too many test events for this place; try again in 42 seconds.' },
  )
  sendTestEvent(
    @CurrentPlace() place: AuthenticatedPlace,
    @PlaceAsActor() actor: AuditActor,
    @Param('type') type: string,
  ): Promise<AcceptedDto> {
    return this.webhooks.sendTest(place, type, actor);
  }
}
