import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AuthService } from './auth.service';
import { PartnerAuthRequestDto, PartnerAuthResponseDto } from './dto/partner-auth.dto';

@ApiTags('Authentication')
@Controller('partner/auth')
@UseGuards(ThrottlerGuard)
export class AuthController {
  constructor(private readonly authService: AuthService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Exchange the gym keys for an access token',
    description:
      'The token is sent as `Authorization: Bearer <ACCESS_TOKEN>` on `/partner/*` routes for 24 hours.',
  })
  @ApiCreatedResponse({ type: PartnerAuthResponseDto })
  @ApiErrorResponses({ 401: ['invalid_credentials'], 422: ['invalid_parameter'], 429: ['rate_limited'] })
  issueToken(@Body() body: PartnerAuthRequestDto): Promise<PartnerAuthResponseDto> {
    return this.authService.issueToken(body);
  }
}
