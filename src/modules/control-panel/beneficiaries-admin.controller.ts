import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth } from '../auth/auth.decorators';
import { BeneficiariesAdminService } from './beneficiaries-admin.service';
import {
  BeneficiaryDto,
  BenefitPlanDto,
  BulkImportDto,
  BulkImportResultDto,
  CreateBeneficiaryDto,
  CreateBenefitPlanDto,
  UpdateBeneficiaryDto,
  UpdateBenefitPlanDto,
} from './dto/beneficiaries.dto';

@ApiTags('Control panel')
@Controller('admin')
@AdminAuth()
export class BeneficiariesAdminController {
  constructor(private readonly admin: BeneficiariesAdminService) {}

  @Post('benefit-plans')
  @ApiOperation({ summary: 'Create a benefit plan' })
  @ApiCreatedResponse({ type: BenefitPlanDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  createBenefitPlan(@Body() body: CreateBenefitPlanDto): Promise<BenefitPlanDto> {
    return this.admin.createBenefitPlan(body);
  }

  @Get('benefit-plans')
  @ApiOperation({ summary: 'All benefit plans' })
  @ApiOkResponse({ type: [BenefitPlanDto] })
  listBenefitPlans(): Promise<BenefitPlanDto[]> {
    return this.admin.listBenefitPlans();
  }

  @Patch('benefit-plans/:code')
  @ApiOperation({ summary: 'Change a benefit plan' })
  @ApiOkResponse({ type: BenefitPlanDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  updateBenefitPlan(
    @Param('code') code: string,
    @Body() body: UpdateBenefitPlanDto,
  ): Promise<BenefitPlanDto> {
    return this.admin.updateBenefitPlan(code, body);
  }

  @Post('beneficiaries')
  @ApiOperation({ summary: 'Create a beneficiary' })
  @ApiCreatedResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  createBeneficiary(@Body() body: CreateBeneficiaryDto): Promise<BeneficiaryDto> {
    return this.admin.createBeneficiary(body);
  }

  @Post('beneficiaries/bulk')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import up to 10,000 beneficiaries (upsert by CPF)',
    description:
      'Each row is checked on its own (CPF check digits included): good rows are imported, bad rows are ' +
      'reported by index. Fields absent from a row keep their current value on update. Body limit: 10 MB.',
  })
  @ApiOkResponse({ type: BulkImportResultDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  bulkImport(@Body() body: BulkImportDto): Promise<BulkImportResultDto> {
    return this.admin.bulkImport(body);
  }

  @Get('beneficiaries/:cpf')
  @ApiOperation({ summary: 'A beneficiary by CPF' })
  @ApiOkResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  getBeneficiary(@Param('cpf') cpf: string): Promise<BeneficiaryDto> {
    return this.admin.getBeneficiary(cpf);
  }

  @Patch('beneficiaries/:cpf')
  @ApiOperation({ summary: 'Change a beneficiary' })
  @ApiOkResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  updateBeneficiary(@Param('cpf') cpf: string, @Body() body: UpdateBeneficiaryDto): Promise<BeneficiaryDto> {
    return this.admin.updateBeneficiary(cpf, body);
  }
}
