import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Page } from '../../common/http/paging';
import { ApiErrorResponses } from '../../common/swagger/api-error-responses.decorator';
import { AdminAuth, CurrentCaller } from '../auth/auth.decorators';
import { Caller } from '../auth/caller';
import { AccountsAdminService } from './accounts-admin.service';
import { AccountDto, PasswordLinkDto } from './dto/account.dto';
import {
  AccountCreatedDto,
  AccountPageDto,
  AccountsQueryDto,
  CreateAccountDto,
  UpdateAccountDto,
} from './dto/accounts-admin.dto';

const ACCOUNT_ID = { name: 'id', example: 12 };

@ApiTags('Accounts')
@Controller('admin/accounts')
@AdminAuth()
export class AccountsAdminController {
  constructor(private readonly accounts: AccountsAdminService) {}

  @Get()
  @ApiOperation({ summary: 'Accounts, by e-mail (operators only)' })
  @ApiOkResponse({ type: AccountPageDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  list(@Query() query: AccountsQueryDto): Promise<Page<AccountDto>> {
    return this.accounts.list(query);
  }

  @Post()
  @ApiOperation({
    summary: 'Invite someone: creates the account and a one-time link (24 h) to set its password',
    description: 'The link is shown only in this answer; hand it to the person. Audited as account.invite.',
  })
  @ApiCreatedResponse({ type: AccountCreatedDto })
  @ApiErrorResponses({ 422: ['invalid_parameter'] })
  invite(@CurrentCaller() caller: Caller, @Body() body: CreateAccountDto): Promise<AccountCreatedDto> {
    return this.accounts.invite(caller.actor, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'An account (operators only)' })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: AccountDto })
  @ApiErrorResponses({ 404: ['not_found'] })
  get(@Param('id') id: string): Promise<AccountDto> {
    return this.accounts.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change an account: name, role, scope, or active',
    description:
      '`active: false` disables it and ends its sessions at once (account.disable). An operator cannot ' +
      'disable their own account or change its role.',
  })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: AccountDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  update(
    @CurrentCaller() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateAccountDto,
  ): Promise<AccountDto> {
    return this.accounts.update(caller.actor, id, body);
  }

  @Post(':id/password-link')
  @ApiOperation({
    summary: 'A new one-time link (24 h) to set the password: a reset (or a new invitation)',
    description:
      "The account's earlier unused links stop working. Using a reset link ends the account's sessions.",
  })
  @ApiParam(ACCOUNT_ID)
  @ApiCreatedResponse({ type: PasswordLinkDto })
  @ApiErrorResponses({ 404: ['not_found'], 422: ['invalid_parameter'] })
  createPasswordLink(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<PasswordLinkDto> {
    return this.accounts.passwordLink(caller.actor, id);
  }
}
