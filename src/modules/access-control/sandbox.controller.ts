import { Body, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { AccessAuth, AccessController, CurrentGym } from './access-auth';
import { AccessGym } from './access-control.repository';
import { AccessErrorDto, SimulateCheckInRequestDto } from './dto/access-control.dto';
import { SIMULATE_EXAMPLES, WELLHUB_EVENT_EXAMPLE } from './dto/access-examples';
import { SandboxEnabledGuard, SandboxService } from './sandbox.service';
import { Origin, RequestOrigin } from '../../common/logging/request-context';

/** Wellhub's sandbox helper, with ACCESS_SANDBOX=true (the demo's). */
@AccessController('helper/v1/gyms')
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  @Post(':gym_id/simulate/checkins')
  @HttpCode(201)
  @Header('content-type', 'application/json; charset=utf-8')
  // The key first (401 without one), then whether the sandbox is on (404 when off).
  @UseGuards(SandboxEnabledGuard)
  @AccessAuth('path')
  @ApiOperation({
    summary: "Simulate a member's app check-in at the gym (sandbox; ACCESS_SANDBOX=true)",
    description:
      "Makes the member's check-in at the gym as the app would (the member API's rules and events) and answers " +
      "the body of its Wellhub-format `checkin` event, as sent to the gym's subscription. 404 when the sandbox " +
      'is off.',
  })
  @ApiBody({ type: SimulateCheckInRequestDto, examples: SIMULATE_EXAMPLES })
  @ApiCreatedResponse({
    description: "The `checkin` event's body",
    content: { 'application/json': { example: WELLHUB_EVENT_EXAMPLE } },
  })
  @ApiResponse({
    status: 400,
    type: AccessErrorDto,
    description: '`checkin.validation.denied` (a rule refuses, with its label), `checkin.validation.invalid`',
  })
  @ApiResponse({ status: 404, type: AccessErrorDto, description: 'No such member, or the sandbox is off' })
  createSimulatedCheckIn(
    @CurrentGym() gym: AccessGym,
    @Body() body: unknown,
    @Origin() origin: RequestOrigin,
  ): Promise<string> {
    return this.sandbox.simulateCheckIn(gym, body, origin);
  }
}
