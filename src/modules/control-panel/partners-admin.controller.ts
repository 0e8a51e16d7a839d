import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth } from '../auth/auth.decorators';
import {
  AdminPlanDto,
  CreatePartnerDto,
  CreatePlaceDto,
  CreatePlanDto,
  PartnerDetailDto,
  PartnerDto,
  PartnerKeyDto,
  PlaceDetailDto,
  PlaceDto,
  PlaceKeyDto,
  TrackUsagesQueryDto,
  UpdatePlaceDto,
  VisitPageDto,
} from './dto/partners.dto';
import { PartnersAdminService } from './partners-admin.service';

@ApiTags('Control panel')
@Controller('admin')
@AdminAuth()
export class PartnersAdminController {
  constructor(private readonly admin: PartnersAdminService) {}

  @Post('partners')
  @ApiOperation({ summary: 'Create a partner (chain) and issue its partner_api_key' })
  @ApiCreatedResponse({ type: PartnerDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  createPartner(@Body() body: CreatePartnerDto): Promise<PartnerDto> {
    return this.admin.createPartner(body);
  }

  @Get('partners/:id')
  @ApiOperation({ summary: 'A partner with its key and places' })
  @ApiOkResponse({ type: PartnerDetailDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  getPartner(@Param('id') id: string): Promise<PartnerDetailDto> {
    return this.admin.getPartner(id);
  }

  @Post('partners/:id/api-key')
  @ApiOperation({
    summary: 'Rotate the partner_api_key',
    description: 'The old key stops working at once, and so do bearer tokens issued with it.',
  })
  @ApiCreatedResponse({ type: PartnerKeyDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  rotatePartnerKey(@Param('id') id: string): Promise<PartnerKeyDto> {
    return this.admin.rotatePartnerKey(id);
  }

  @Post('places')
  @ApiOperation({ summary: 'Create a place (gym unit) and issue its place_api_key' })
  @ApiCreatedResponse({ type: PlaceDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  createPlace(@Body() body: CreatePlaceDto): Promise<PlaceDto> {
    return this.admin.createPlace(body);
  }

  @Get('places/:id')
  @ApiOperation({ summary: 'A place with its key and active plans' })
  @ApiOkResponse({ type: PlaceDetailDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  getPlace(@Param('id') id: string): Promise<PlaceDetailDto> {
    return this.admin.getPlace(id);
  }

  @Patch('places/:id')
  @ApiOperation({ summary: 'Rename, delist or relist a place' })
  @ApiOkResponse({ type: PlaceDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  updatePlace(@Param('id') id: string, @Body() body: UpdatePlaceDto): Promise<PlaceDto> {
    return this.admin.updatePlace(id, body);
  }

  @Post('places/:id/api-key')
  @ApiOperation({
    summary: 'Rotate the place_api_key',
    description: 'The old key stops working at once, and so do bearer tokens issued with it.',
  })
  @ApiCreatedResponse({ type: PlaceKeyDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  rotatePlaceKey(@Param('id') id: string): Promise<PlaceKeyDto> {
    return this.admin.rotatePlaceKey(id);
  }

  @Post('places/:id/plans')
  @ApiOperation({ summary: 'Add a plan to a place' })
  @ApiCreatedResponse({ type: AdminPlanDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  createPlan(@Param('id') id: string, @Body() body: CreatePlanDto): Promise<AdminPlanDto> {
    return this.admin.createPlan(id, body);
  }

  @Delete('places/:id/plans/:code')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a plan (soft delete: deletedAt is set)' })
  @ApiOkResponse({ type: AdminPlanDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  deletePlan(@Param('id') id: string, @Param('code') code: string): Promise<AdminPlanDto> {
    return this.admin.deletePlan(id, code);
  }

  @Get('places/:id/track-usages')
  @ApiOperation({ summary: "The place's visits, newest first, 50 a page" })
  @ApiOkResponse({ type: VisitPageDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  visits(@Param('id') id: string, @Query() query: TrackUsagesQueryDto): Promise<VisitPageDto> {
    return this.admin.visits(id, query);
  }
}
