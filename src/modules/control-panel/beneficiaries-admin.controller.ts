import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BULK_JSON_VALUES } from '../../common/http/body-parsing';
import { Locale } from '../../common/i18n/locale';
import { RequestLocale } from '../../common/i18n/request-locale';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { ApiCsvResponse, csvFile } from '../../common/http/csv';
import { Page, PageQueryDto } from '../../common/http/paging';
import { AdminAuth, CurrentCaller, Roles } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import { BeneficiariesAdminService } from './beneficiaries-admin.service';
import { toBulkImportResultDto } from './control-panel.mappers';
import {
  BeneficiariesExportQueryDto,
  BeneficiariesQueryDto,
  BeneficiaryDto,
  BeneficiaryListItemDto,
  BeneficiaryPageDto,
  BeneficiaryUsageDto,
  BeneficiaryVisitDto,
  BeneficiaryVisitPageDto,
  BulkImportDto,
  BulkImportResultDto,
  CreateBeneficiaryDto,
  UpdateBeneficiaryDto,
} from './dto/beneficiaries.dto';

const CPF = {
  name: 'cpf',
  example: '111.444.777-35',
  description: "A CPF, with or without punctuation, or the beneficiary's 8-character code",
};

@ApiTags('Control panel')
@Controller('admin/beneficiaries')
@AdminAuth()
export class BeneficiariesAdminController {
  constructor(private readonly beneficiaries: BeneficiariesAdminService) {}

  @Get()
  @Roles('support')
  @ApiOperation({
    summary: 'Beneficiaries, by name',
    description:
      '`q` matches the start of a CPF (any punctuation), a whole code, or part of a name. CPFs are masked for support.',
  })
  @ApiOkResponse({ type: BeneficiaryPageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: BeneficiariesQueryDto,
  ): Promise<Page<BeneficiaryListItemDto>> {
    return this.beneficiaries.listBeneficiaries(caller, query);
  }

  @Get('export')
  @Roles('support')
  @ApiOperation({
    summary: 'The beneficiaries of the list, with its search, as a CSV file (every page), oldest first',
    description: 'UTF-8 with a byte-order mark, comma-separated, one header line; CPFs masked for support.',
  })
  @ApiCsvResponse(
    'beneficiaries.csv',
    'cpf,code,name,email,active,benefit_plan_code\r\n11144477735,EQ2B3FBK,Joana Lima,joana@example.com,true,GOLD\r\n',
  )
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  export(@CurrentCaller() caller: Caller, @Query() query: BeneficiariesExportQueryDto): StreamableFile {
    return csvFile('beneficiaries.csv', this.beneficiaries.exportBeneficiaries(caller, query));
  }

  @Post()
  @ApiOperation({ summary: 'Create a beneficiary' })
  @ApiCreatedResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateBeneficiaryDto): Promise<BeneficiaryDto> {
    return this.beneficiaries.createBeneficiary(caller, body);
  }

  @Post('bulk')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import up to 10,000 beneficiaries (upsert by CPF)',
    description:
      'Each row is checked on its own (CPF check digits included): good rows are imported, bad rows are ' +
      'reported by index with label invalid_parameter. On update, fields absent from a row keep their ' +
      'value. A code already held by another beneficiary fails its row. Imports run one at a time (a second ' +
      'one waits for the first); all rows are written in one transaction. Body limit: 10 MB and ' +
      `${BULK_JSON_VALUES.toLocaleString('en')} values (rows and their fields, 12 a row on average); 413 ` +
      'payload_too_large beyond either.',
  })
  @ApiBody({ type: BulkImportDto })
  @ApiOkResponse({ type: BulkImportResultDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  async importBeneficiaries(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<BulkImportResultDto> {
    return toBulkImportResultDto(await this.beneficiaries.bulkImport(caller, body), locale);
  }

  @Get(':cpf')
  @Roles('support')
  @ApiOperation({ summary: 'A beneficiary by CPF or code (the CPF masked in the answer for support)' })
  @ApiParam(CPF)
  @ApiOkResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@CurrentCaller() caller: Caller, @Param('cpf') cpf: string): Promise<BeneficiaryDto> {
    return this.beneficiaries.getBeneficiary(caller, cpf);
  }

  @Get(':cpf/usage')
  @Roles('support')
  @ApiOperation({
    summary: "A beneficiary's use of the monthly limit this month, and its benefit plan",
    description:
      'Visits are counted from the start of the month in BUSINESS_TIMEZONE, as the check-in rule counts them.',
  })
  @ApiParam(CPF)
  @ApiOkResponse({ type: BeneficiaryUsageDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  getBeneficiaryUsage(@Param('cpf') cpf: string): Promise<BeneficiaryUsageDto> {
    return this.beneficiaries.usage(cpf);
  }

  @Get(':cpf/visits')
  @Roles('support')
  @ApiOperation({ summary: "A beneficiary's visits at every place, newest first" })
  @ApiParam(CPF)
  @ApiOkResponse({ type: BeneficiaryVisitPageDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  listBeneficiaryVisits(
    @Param('cpf') cpf: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<BeneficiaryVisitDto>> {
    return this.beneficiaries.visits(cpf, query);
  }

  @Patch(':cpf')
  @ApiOperation({ summary: 'Change a beneficiary; null clears email, phone or birthday' })
  @ApiParam(CPF)
  @ApiOkResponse({ type: BeneficiaryDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(
    @CurrentCaller() caller: Caller,
    @Param('cpf') cpf: string,
    @Body() body: UpdateBeneficiaryDto,
  ): Promise<BeneficiaryDto> {
    return this.beneficiaries.updateBeneficiary(caller, cpf, body);
  }
}
