import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth } from '../auth/auth.decorators';
import {
  AdminPlanDto,
  CreatePlaceDto,
  CreatePlanDto,
  PlaceDetailDto,
  PlaceDto,
  PlaceKeyDto,
  TrackUsagesQueryDto,
  UpdatePlaceDto,
  VisitPageDto,
} from './dto/places.dto';
import { PlacesAdminService } from './places-admin.service';

const PLACE_ID = { name: 'id', example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' };

@ApiTags('Control panel')
@Controller('admin/places')
@AdminAuth()
export class PlacesAdminController {
  constructor(private readonly places: PlacesAdminService) {}

  @Post()
  @ApiOperation({ summary: 'Create a place (gym unit) of a partner and issue its place_api_key' })
  @ApiCreatedResponse({ type: PlaceDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  create(@Body() body: CreatePlaceDto): Promise<PlaceDto> {
    return this.places.createPlace(body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A place with its current key and its plans' })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: PlaceDetailDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@Param('id') id: string): Promise<PlaceDetailDto> {
    return this.places.getPlace(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Rename, delist or relist a place',
    description: 'Answers the place with its current key. Takes effect at once for check-ins.',
  })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: PlaceDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(@Param('id') id: string, @Body() body: UpdatePlaceDto): Promise<PlaceDto> {
    return this.places.updatePlace(id, body);
  }

  @Post(':id/api-key')
  @ApiOperation({
    summary: 'Rotate the place_api_key',
    description: 'The old key stops working at once, and so do the bearer tokens issued with it.',
  })
  @ApiParam(PLACE_ID)
  @ApiCreatedResponse({ type: PlaceKeyDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  rotateKey(@Param('id') id: string): Promise<PlaceKeyDto> {
    return this.places.rotatePlaceKey(id);
  }

  @Post(':id/plans')
  @ApiOperation({ summary: 'Add a plan to a place' })
  @ApiParam(PLACE_ID)
  @ApiCreatedResponse({ type: AdminPlanDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  createPlan(@Param('id') id: string, @Body() body: CreatePlanDto): Promise<AdminPlanDto> {
    return this.places.createPlan(id, body);
  }

  @Delete(':id/plans/:code')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a plan (soft delete: deletedAt is set); answers the plan' })
  @ApiParam(PLACE_ID)
  @ApiParam({ name: 'code', example: 'B0KR5QWH' })
  @ApiOkResponse({ type: AdminPlanDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  deletePlan(@Param('id') id: string, @Param('code') code: string): Promise<AdminPlanDto> {
    return this.places.deletePlan(id, code);
  }

  @Get(':id/track-usages')
  @ApiOperation({ summary: "The place's visits, newest first, 50 a page" })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: VisitPageDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  visits(@Param('id') id: string, @Query() query: TrackUsagesQueryDto): Promise<VisitPageDto> {
    return this.places.visits(id, query);
  }
}
