import { ApiProperty } from '@nestjs/swagger';
import { MAX_FIELD_LENGTH } from '../../eligibility/track-usage-request';

/** The body, for the document: read by the check-in routes' parser (`parseAppValidationRequest`), with its limits. */
export class AppValidationRequestDto {
  @ApiProperty({
    example: '12345600896',
    description: 'The CPF; `{type: "cpf", identifier}` is accepted too',
    maxLength: MAX_FIELD_LENGTH,
  })
  employee_document_number: string;
}

export class EmployeeDataDto {
  @ApiProperty({ example: 'Maria Silva' })
  name: string;

  @ApiProperty({ example: 'maria@example.com', nullable: true, type: String })
  email: string | null;

  @ApiProperty({ example: '1990-04-12', nullable: true, type: String })
  birthday: string | null;

  @ApiProperty({ example: '+5511999990000', nullable: true, type: String })
  phone: string | null;
}

export class AppDataDto {
  @ApiProperty({ example: true, description: 'The benefit plan includes a meal plan' })
  meal_plan: boolean;

  @ApiProperty({ example: false, description: 'The benefit plan includes appointments' })
  appointment: boolean;
}

export class AppValidationResponseDto {
  @ApiProperty({ type: EmployeeDataDto })
  employee_data: EmployeeDataDto;

  @ApiProperty({ type: AppDataDto })
  app_data: AppDataDto;
}
