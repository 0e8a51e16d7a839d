import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import { BenefitPlansAdminService } from './benefit-plans-admin.service';
import { BenefitPlanDto, CreateBenefitPlanDto, UpdateBenefitPlanDto } from './dto/benefit-plans.dto';

@ApiTags('Control panel')
@Controller('admin/benefit-plans')
@AdminAuth()
export class BenefitPlansAdminController {
  constructor(private readonly benefitPlans: BenefitPlansAdminService) {}

  @Post()
  @ApiOperation({ summary: 'Create a benefit plan' })
  @ApiCreatedResponse({ type: BenefitPlanDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateBenefitPlanDto): Promise<BenefitPlanDto> {
    return this.benefitPlans.createBenefitPlan(caller, body);
  }

  @Get()
  @Roles('support')
  @ApiOperation({ summary: 'All benefit plans, by code' })
  @ApiOkResponse({ type: [BenefitPlanDto] })
  list(): Promise<BenefitPlanDto[]> {
    return this.benefitPlans.listBenefitPlans();
  }

  @Patch(':code')
  @ApiOperation({ summary: 'Change a benefit plan; its beneficiaries see the change at once' })
  @ApiParam({ name: 'code', example: 'GOLD' })
  @ApiOkResponse({ type: BenefitPlanDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(
    @CurrentCaller() caller: Caller,
    @Param('code') code: string,
    @Body() body: UpdateBenefitPlanDto,
  ): Promise<BenefitPlanDto> {
    return this.benefitPlans.updateBenefitPlan(caller, code, body);
  }
}
