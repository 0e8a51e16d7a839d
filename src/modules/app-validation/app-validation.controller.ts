import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { ApiKeyAuth, CurrentPlace } from '../auth/auth.decorators';
import { AuthenticatedPlace } from '../auth/auth.types';
import { AppValidationService } from './app-validation.service';
import { AppValidationRequestDto, AppValidationResponseDto } from './dto/app-validation.dto';

@ApiTags('App')
@Controller('partner_app/v1/validate')
@ApiKeyAuth()
export class AppValidationController {
  constructor(private readonly appValidation: AppValidationService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate a beneficiary for a partner app', description: 'Consumes nothing.' })
  @ApiBody({
    type: AppValidationRequestDto,
    examples: {
      documentNumber: {
        summary: 'By document number → 200',
        value: { employee_document_number: '12345600896' },
      },
      typeIdentifier: {
        summary: 'As type and identifier → 200',
        value: { type: 'cpf', identifier: '12345600896' },
      },
    },
  })
  @ApiOkResponse({
    type: AppValidationResponseDto,
    description: 'The beneficiary may use the app: who they are and what their benefit plan includes',
  })
  @ApiErrorResponses({ 422: ['invalid_parameter', 'not_exists', 'inactive_employee'] })
  validateEmployee(
    @CurrentPlace() place: AuthenticatedPlace,
    @Body() body: unknown,
  ): Promise<AppValidationResponseDto> {
    return this.appValidation.validate(place, body);
  }
}
