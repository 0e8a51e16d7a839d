import {
  Body,
  Controller,
  createParamDecorator,
  Delete,
  ExecutionContext,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Res,
} from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CurrentCaller, CurrentSession, SessionAuth } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import { LoginDto, PasswordLinkInfoDto, SessionDto, SetPasswordDto } from './dto/session.dto';
import { PasswordLinksService } from './password-links.service';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './session-cookie';
import { ClientInfo, LiveSession, SessionService } from './session.service';

/** The client's address, user agent and the request id, for sessions and the audit log. */
const Client = createParamDecorator((_data: unknown, context: ExecutionContext): ClientInfo => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  const agent = request.headers['user-agent'];
  return {
    address: request.ip,
    userAgent: typeof agent === 'string' ? agent : null,
    requestId: String(request.id),
  };
});

const LINK_GONE = 'This link is unknown, used or expired; ask an operator for a new one.';
const TOKEN_PARAM = { name: 'token', description: 'The token of the link (the part after #/set-password/)' };

@ApiTags('Console session')
@Controller('account')
export class SessionController {
  constructor(
    private readonly sessions: SessionService,
    private readonly passwordLinks: PasswordLinksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('session')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in to the console',
    description:
      `Sets the session cookie \`${SESSION_COOKIE}\` (HttpOnly, SameSite=Lax, Path=/, and Secure outside ` +
      'development and test). The session ends after SESSION_IDLE_MINUTES (30) without a request, 12 hours ' +
      'after sign-in, on sign-out, or when the account is disabled. Send `csrf_token` as `X-CSRF-Token` on ' +
      'every change. A wrong e-mail, a wrong password and a disabled account get the same answer; failures ' +
      'are limited per e-mail and per address (429 with Retry-After).',
  })
  @ApiOkResponse({
    type: SessionDto,
    headers: { 'Set-Cookie': { description: `${SESSION_COOKIE}=<opaque>; HttpOnly; SameSite=Lax; Path=/` } },
  })
  @ApiErrorResponses(
    { 401: ['invalid_credentials'], 422: ['invalid_parameter'], 429: ['rate_limited'] },
    {
      invalid_credentials: 'The e-mail and password do not match an active account.',
      rate_limited: 'Too many failed sign-ins; try again in 540 seconds.',
    },
  )
  async signIn(
    @Body() body: LoginDto,
    @Client() client: ClientInfo,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionDto> {
    const { token, ...session } = await this.sessions.login(body.email, body.password, client);
    setSessionCookie(reply, token, this.config.sessionCookieSecure);
    return session;
  }

  @Get('session')
  @SessionAuth()
  @ApiOperation({ summary: 'The signed-in account and the CSRF token of its session' })
  @ApiOkResponse({ type: SessionDto })
  getSession(@CurrentSession() session: LiveSession): Promise<SessionDto> {
    return this.sessions.describe(session);
  }

  @Delete('session')
  @HttpCode(204)
  @SessionAuth()
  @ApiOperation({ summary: 'Sign out: the session ends and the cookie is cleared (needs X-CSRF-Token)' })
  @ApiNoContentResponse({ description: 'Signed out' })
  async signOut(
    @CurrentSession() session: LiveSession,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.logout(session, caller.actor);
    clearSessionCookie(reply, this.config.sessionCookieSecure);
  }

  @Get('password-links/:token')
  @ApiOperation({ summary: 'Who a password link is for (an invitation or a reset), while it can be used' })
  @ApiParam(TOKEN_PARAM)
  @ApiOkResponse({ type: PasswordLinkInfoDto })
  @ApiErrorResponses({ 404: ['not_found'] }, { not_found: LINK_GONE })
  describePasswordLink(@Param('token') token: string): Promise<PasswordLinkInfoDto> {
    return this.passwordLinks.describe(token);
  }

  @Post('password-links/:token')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Set the password with a one-time link',
    description:
      'Uses the link up. Does not sign in. For a reset, every session of the account ends. 12 to 256 characters.',
  })
  @ApiParam(TOKEN_PARAM)
  @ApiResponse({ status: 204, description: 'Password set' })
  @ApiErrorResponses(
    { 404: ['not_found'], 422: ['invalid_parameter'] },
    { not_found: LINK_GONE, invalid_parameter: 'password must be 12 to 256 characters' },
  )
  setPassword(
    @Param('token') token: string,
    @Body() body: SetPasswordDto,
    @Client() client: ClientInfo,
  ): Promise<void> {
    return this.passwordLinks.setPassword(token, body.password, client);
  }
}
