import { Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiCsvResponse, csvFile } from '../../common/http/csv';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import {
  AdminDeliveriesExportQueryDto,
  AdminDeliveriesQueryDto,
  AdminDeliveryDetailDto,
  AdminDeliveryDto,
  AdminDeliveryPageDto,
} from './dto/webhooks-admin.dto';
import { AcceptedDto } from './dto/webhooks.dto';
import { WebhooksAdminService } from './webhooks-admin.service';

const DELIVERY_ID = { name: 'id', example: 'dlv_0c1f4e0a9b8d4c7e8f6a5b4c3d2e1f00' };

@ApiTags('Control panel: webhooks')
@Controller('admin/deliveries')
@AdminAuth()
export class DeliveriesAdminController {
  constructor(private readonly webhooks: WebhooksAdminService) {}

  @Get()
  @Roles('support', 'gym')
  @ApiOperation({
    summary: 'Webhook deliveries of every place: failed first, then newest',
    description: 'A gym account sees the deliveries of its places only.',
  })
  @ApiOkResponse({ type: AdminDeliveryPageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: AdminDeliveriesQueryDto,
  ): Promise<Page<AdminDeliveryDto>> {
    return this.webhooks.listDeliveries(caller, query);
  }

  @Get('export')
  @Roles('support', 'gym')
  @ApiOperation({
    summary: 'The deliveries of the list, with its filters, as a CSV file (every page), newest first',
    description:
      'UTF-8 with a byte-order mark, comma-separated, one header line. A gym account gets its places only.',
  })
  @ApiCsvResponse(
    'deliveries.csv',
    'id,created_at,place_id,place_name,event_id,event_type,url,status,attempts,last_status_code,last_error,' +
      'last_attempt_at,next_attempt_at,delivered_at\r\n' +
      'dlv_0c1f4e0a9b8d4c7e8f6a5b4c3d2e1f00,2026-11-22T07:02:11.412-03:00,5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61,' +
      'Acme Paulista,evt_5f0c3a6e2b1d4c8f9a7b6c5d4e3f2a1b,CHECK_IN_CREATED,https://erp.example.com/webhooks/checkins,' +
      'pending,2,503,HTTP 503,2026-11-22T07:02:17.020-03:00,2026-11-22T07:07:19.020-03:00,\r\n',
  )
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  export(@CurrentCaller() caller: Caller, @Query() query: AdminDeliveriesExportQueryDto): StreamableFile {
    return csvFile('deliveries.csv', this.webhooks.exportDeliveries(caller, query));
  }

  @Get(':id')
  @Roles('support', 'gym')
  @ApiOperation({
    summary: "A delivery with the event body as sent and every attempt with the receiver's answer",
    description: 'CPFs are masked for support. A gym account gets 404 for a delivery of another place.',
  })
  @ApiParam(DELIVERY_ID)
  @ApiOkResponse({ type: AdminDeliveryDetailDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<AdminDeliveryDetailDto> {
    return this.webhooks.getDelivery(caller, id);
  }

  @Post(':id/redeliver')
  @HttpCode(202)
  @Roles('support', 'gym')
  @ApiOperation({
    summary: 'Send a delivered or failed event again (same webhook-id); audited',
    description: '422 invalid_parameter while the delivery is still pending or queued.',
  })
  @ApiParam(DELIVERY_ID)
  @ApiAcceptedResponse({ type: AcceptedDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  redeliver(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<AcceptedDto> {
    return this.webhooks.redeliver(caller, id);
  }
}
