import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import {
  AdminPlanDto,
  CreatePlaceDto,
  CreatePlanDto,
  PlaceDetailDto,
  PlaceDto,
  PlaceKeyDto,
  PlaceListItemDto,
  PlacePageDto,
  PlacesQueryDto,
  RevealedKeysDto,
  TrackUsagesQueryDto,
  UpdatePlaceDto,
  VisitPageDto,
} from './dto/places.dto';
import { PlacesAdminService } from './places-admin.service';

export const PLACE_ID = { name: 'id', example: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61' };
const OUT_OF_SCOPE = ' A gym account gets 404 for a place outside its scope.';

@ApiTags('Control panel')
@Controller('admin/places')
@AdminAuth()
export class PlacesAdminController {
  constructor(private readonly places: PlacesAdminService) {}

  @Get()
  @Roles('support', 'gym')
  @ApiOperation({
    summary: 'Places, by name',
    description: 'A gym account sees only the places of its scope.',
  })
  @ApiOkResponse({ type: PlacePageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  list(@CurrentCaller() caller: Caller, @Query() query: PlacesQueryDto): Promise<Page<PlaceListItemDto>> {
    return this.places.listPlaces(caller, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create a place (gym unit) of a partner and issue its place_api_key' })
  @ApiCreatedResponse({ type: PlaceDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  create(@CurrentCaller() caller: Caller, @Body() body: CreatePlaceDto): Promise<PlaceDto> {
    return this.places.createPlace(caller, body);
  }

  @Get(':id')
  @Roles('support', 'gym')
  @ApiOperation({
    summary: 'A place with its current key and its plans',
    description: `The key is masked for support and gym accounts.${OUT_OF_SCOPE}`,
  })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: PlaceDetailDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PlaceDetailDto> {
    return this.places.getPlace(caller, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Rename, delist or relist a place',
    description: 'Answers the place with its current key. Takes effect at once for check-ins.',
  })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: PlaceDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdatePlaceDto,
  ): Promise<PlaceDto> {
    return this.places.updatePlace(caller, id, body);
  }

  @Post(':id/api-key')
  @Roles('gym')
  @ApiOperation({
    summary: 'Rotate the place_api_key',
    description: `The old key stops working at once, and so do the bearer tokens issued with it. The answer holds the new key whole.${OUT_OF_SCOPE}`,
  })
  @ApiParam(PLACE_ID)
  @ApiCreatedResponse({ type: PlaceKeyDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  rotatePlaceKey(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PlaceKeyDto> {
    return this.places.rotatePlaceKey(caller, id);
  }

  @Post(':id/keys/reveal')
  @HttpCode(200)
  @Roles('gym')
  @ApiOperation({
    summary: "Show the place's key whole (and the partner's, to operators and chain accounts)",
    description: `Audited as key.reveal.${OUT_OF_SCOPE}`,
  })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: RevealedKeysDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  revealPlaceKeys(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<RevealedKeysDto> {
    return this.places.revealKeys(caller, id);
  }

  @Post(':id/plans')
  @ApiOperation({ summary: 'Add a plan to a place' })
  @ApiParam(PLACE_ID)
  @ApiCreatedResponse({ type: AdminPlanDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  createPlan(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: CreatePlanDto,
  ): Promise<AdminPlanDto> {
    return this.places.createPlan(caller, id, body);
  }

  @Delete(':id/plans/:code')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a plan (soft delete: deletedAt is set); answers the plan' })
  @ApiParam(PLACE_ID)
  @ApiParam({ name: 'code', example: 'B0KR5QWH' })
  @ApiOkResponse({ type: AdminPlanDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  deletePlan(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Param('code') code: string,
  ): Promise<AdminPlanDto> {
    return this.places.deletePlan(caller, id, code);
  }

  @Get(':id/track-usages')
  @Roles('support', 'gym')
  @ApiOperation({
    summary: "The place's visits (recent check-ins), newest first",
    description: `CPFs are masked for support.${OUT_OF_SCOPE}`,
  })
  @ApiParam(PLACE_ID)
  @ApiOkResponse({ type: VisitPageDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  listPlaceVisits(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Query() query: TrackUsagesQueryDto,
  ): Promise<VisitPageDto> {
    return this.places.visits(caller, id, query);
  }
}
