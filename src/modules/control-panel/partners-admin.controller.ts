import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth } from '../auth/auth.decorators';
import { CreatePartnerDto, PartnerDetailDto, PartnerDto, PartnerKeyDto } from './dto/partners.dto';
import { PartnersAdminService } from './partners-admin.service';

@ApiTags('Control panel')
@Controller('admin/partners')
@AdminAuth()
export class PartnersAdminController {
  constructor(private readonly partners: PartnersAdminService) {}

  @Post()
  @ApiOperation({ summary: 'Create a partner (chain) and issue its partner_api_key' })
  @ApiCreatedResponse({ type: PartnerDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  create(@Body() body: CreatePartnerDto): Promise<PartnerDto> {
    return this.partners.createPartner(body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A partner with its current key and its places' })
  @ApiParam({ name: 'id', example: 7 })
  @ApiOkResponse({ type: PartnerDetailDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@Param('id') id: string): Promise<PartnerDetailDto> {
    return this.partners.getPartner(id);
  }

  @Post(':id/api-key')
  @ApiOperation({
    summary: 'Rotate the partner_api_key',
    description: 'The old key stops working at once, and so do the bearer tokens issued with it.',
  })
  @ApiParam({ name: 'id', example: 7 })
  @ApiCreatedResponse({ type: PartnerKeyDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  rotateKey(@Param('id') id: string): Promise<PartnerKeyDto> {
    return this.partners.rotatePartnerKey(id);
  }
}
