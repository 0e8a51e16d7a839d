import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
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
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import {
  AcceptedDto,
  WebhookCreatedResponseDto,
  WebhookDeletedResponseDto,
  WebhookListDto,
  WebhookRequestDto,
  WebhookUpdatedResponseDto,
  WebhookUrlDto,
} from './dto/webhooks.dto';
import { WebhooksAdminService } from './webhooks-admin.service';

const PLACE_ID = { name: 'id', example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' };
const TYPE_PARAM = { name: 'type', example: 'CHECKIN', enum: ['CHECKIN'] };
const SAME_AS = (route: string) =>
  `The same rules and answer as \`${route}\` with the place's token. A gym account gets 404 for a place outside its scope. Audited.`;

@ApiTags('Control panel: webhooks')
@Controller('admin/places/:id/webhooks')
@AdminAuth()
export class WebhooksAdminController {
  constructor(private readonly webhooks: WebhooksAdminService) {}

  @Get()
  @Roles('support', 'gym')
  @ApiOperation({ summary: "A place's webhook subscriptions (secrets are never listed)" })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: WebhookListDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  listPlaceWebhooks(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<WebhookListDto> {
    return this.webhooks.list(caller, id);
  }

  @Post()
  @Roles('gym')
  @ApiOperation({
    summary: 'Subscribe a URL to an event type for the place; the answer holds the signing secret, once',
    description: SAME_AS('POST /partner/webhook/create'),
  })
  @ApiParam(PLACE_ID)
  @ApiBody({ type: WebhookRequestDto })
  @ApiCreatedResponse({ type: WebhookCreatedResponseDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  createPlaceWebhook(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: WebhookRequestDto,
  ): Promise<WebhookCreatedResponseDto> {
    return this.webhooks.create(caller, id, body);
  }

  @Put(':type')
  @Roles('gym')
  @ApiOperation({
    summary: "Change a subscription's URL (the secret stays)",
    description: SAME_AS('PUT /partner/webhook/update'),
  })
  @ApiParam(PLACE_ID)
  @ApiParam(TYPE_PARAM)
  @ApiBody({ type: WebhookUrlDto })
  @ApiOkResponse({ type: WebhookUpdatedResponseDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  updatePlaceWebhook(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('type') type: string,
    @Body() body: WebhookUrlDto,
  ): Promise<WebhookUpdatedResponseDto> {
    return this.webhooks.update(caller, id, type, body);
  }

  @Delete(':type')
  @Roles('gym')
  @ApiOperation({
    summary: 'Remove a subscription',
    description: SAME_AS('DELETE /partner/webhook/delete/:type'),
  })
  @ApiParam(PLACE_ID)
  @ApiParam(TYPE_PARAM)
  @ApiOkResponse({ type: WebhookDeletedResponseDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  removePlaceWebhook(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('type') type: string,
  ): Promise<WebhookDeletedResponseDto> {
    return this.webhooks.remove(caller, id, type);
  }

  @Post(':type/test')
  @HttpCode(202)
  @Roles('gym')
  @ApiOperation({
    summary: 'Send a TEST event to the subscription through the same pipeline',
    description: SAME_AS('POST /partner/webhook/test/:type'),
  })
  @ApiParam(PLACE_ID)
  @ApiParam(TYPE_PARAM)
  @ApiAcceptedResponse({ type: AcceptedDto })
  @ApiErrorResponses(
    { 404: ['not_found'], 422: ['invalid_parameter'], 429: ['rate_limited'] },
    { rate_limited: 'Too many test events for this place; try again in 42 seconds.' },
  )
  sendPlaceTestEvent(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('type') type: string,
  ): Promise<AcceptedDto> {
    return this.webhooks.sendTest(caller, id, type);
  }
}
