import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Locale } from '../../common/i18n/locale';
import { RequestLocale } from '../../common/i18n/request-locale';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth } from '../auth/auth.decorators';
import { BeneficiariesAdminService } from './beneficiaries-admin.service';
import { toBulkImportResultDto } from './control-panel.mappers';
import {
  BeneficiaryDto,
  BulkImportDto,
  BulkImportResultDto,
  CreateBeneficiaryDto,
  UpdateBeneficiaryDto,
} from './dto/beneficiaries.dto';

const CPF = { name: 'cpf', example: '111.444.777-35', description: 'With or without punctuation' };

@ApiTags('Control panel')
@Controller('admin/beneficiaries')
@AdminAuth()
export class BeneficiariesAdminController {
  constructor(private readonly beneficiaries: BeneficiariesAdminService) {}

  @Post()
  @ApiOperation({ summary: 'Create a beneficiary' })
  @ApiCreatedResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  create(@Body() body: CreateBeneficiaryDto): Promise<BeneficiaryDto> {
    return this.beneficiaries.createBeneficiary(body);
  }

  @Post('bulk')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import up to 10,000 beneficiaries (upsert by CPF)',
    description:
      'Each row is checked on its own (CPF check digits included): good rows are imported, bad rows are ' +
      'reported by index with label invalid_parameter. On update, fields absent from a row keep their ' +
      'value. A code already held by another beneficiary fails its row. Imports run one at a time (a second ' +
      'one waits for the first); all rows are written in one transaction. Body limit: 10 MB.',
  })
  @ApiOkResponse({ type: BulkImportResultDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  async bulkImport(
    @Body() body: BulkImportDto,
    @RequestLocale() locale: Locale,
  ): Promise<BulkImportResultDto> {
    return toBulkImportResultDto(await this.beneficiaries.bulkImport(body), locale);
  }

  @Get(':cpf')
  @ApiOperation({ summary: 'A beneficiary by CPF' })
  @ApiParam(CPF)
  @ApiOkResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@Param('cpf') cpf: string): Promise<BeneficiaryDto> {
    return this.beneficiaries.getBeneficiary(cpf);
  }

  @Patch(':cpf')
  @ApiOperation({ summary: 'Change a beneficiary; null clears email, phone or birthday' })
  @ApiParam(CPF)
  @ApiOkResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(@Param('cpf') cpf: string, @Body() body: UpdateBeneficiaryDto): Promise<BeneficiaryDto> {
    return this.beneficiaries.updateBeneficiary(cpf, body);
  }
}
