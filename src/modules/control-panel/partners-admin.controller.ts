import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import {
  CreatePartnerDto,
  PartnerDetailDto,
  PartnerDto,
  PartnerKeyDto,
  PartnerListItemDto,
  PartnerPageDto,
  PartnersQueryDto,
  UpdatePartnerDto,
} from './dto/partners.dto';
import { PartnersAdminService } from './partners-admin.service';

@ApiTags('Control panel')
@Controller('admin/partners')
@AdminAuth()
export class PartnersAdminController {
  constructor(private readonly partners: PartnersAdminService) {}

  @Get()
  @Roles('support')
  @ApiOperation({ summary: 'Partners (chains), by name, with how many places each has' })
  @ApiOkResponse({ type: PartnerPageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  list(@Query() query: PartnersQueryDto): Promise<Page<PartnerListItemDto>> {
    return this.partners.listPartners(query);
  }

  @Post()
  @ApiOperation({ summary: 'Create a partner (chain) and issue its partner_api_key' })
  @ApiCreatedResponse({ type: PartnerDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  create(@CurrentCaller() caller: Caller, @Body() body: CreatePartnerDto): Promise<PartnerDto> {
    return this.partners.createPartner(caller, body);
  }

  @Get(':id')
  @Roles('support')
  @ApiOperation({ summary: 'A partner with its current key and its places (keys masked for support)' })
  @ApiParam({ name: 'id', example: 7 })
  @ApiOkResponse({ type: PartnerDetailDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PartnerDetailDto> {
    return this.partners.getPartner(caller, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a partner (chain); audited' })
  @ApiParam({ name: 'id', example: 7 })
  @ApiOkResponse({ type: PartnerDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdatePartnerDto,
  ): Promise<PartnerDto> {
    return this.partners.renamePartner(caller, id, body);
  }

  @Post(':id/api-key')
  @Roles('gym')
  @ApiOperation({
    summary: 'Rotate the partner_api_key',
    description:
      'The old key stops working at once, and so do the bearer tokens issued with it. A gym account may rotate ' +
      'the key of its own partner only if it is a chain account (others: 404).',
  })
  @ApiParam({ name: 'id', example: 7 })
  @ApiCreatedResponse({ type: PartnerKeyDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  rotatePartnerKey(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PartnerKeyDto> {
    return this.partners.rotatePartnerKey(caller, id);
  }
}
