import { Inject, Injectable } from '@nestjs/common';
import { invalidParameter, notFound } from '../../common/errors/domain-error';
import { Page, pageOf, paging } from '../../common/http/paging';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuditLog } from '../audit/audit-log';
import { AuditActor } from '../auth/caller';
import { PartnersRepository } from '../partners/partners.repository';
import { AccountScope, resolveScope } from './account-scope';
import { normalizeEmail, toAccountDto } from './accounts.mappers';
import {
  AccountChanges,
  AccountsRepository,
  AccountWithPlaces,
  ACCOUNTS_TRANSACTION,
} from './accounts.repository';
import { AccountDto, PasswordLinkDto } from './dto/account.dto';
import {
  AccountCreatedDto,
  AccountsQueryDto,
  CreateAccountDto,
  UpdateAccountDto,
} from './dto/accounts-admin.dto';
import { PasswordLinksService } from './password-links.service';
import { Transactions } from '../../database/transactions';

/** Operators' management of accounts: invitations, changes of role, scope and state, reset links. */
@Injectable()
export class AccountsAdminService {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly partners: PartnersRepository,
    private readonly transactions: Transactions,
    private readonly passwordLinks: PasswordLinksService,
    private readonly audit: AuditLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(query: AccountsQueryDto): Promise<Page<AccountDto>> {
    const page = paging(query);
    const { rows, total } = await this.repository.listAccounts(
      { q: query.q?.trim() || undefined, role: query.role },
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((account) => this.dto(account)),
      page,
      total,
    );
  }

  async get(id: string): Promise<AccountDto> {
    return this.dto(await this.find(id));
  }

  /** Creates the account (no password yet) and its invitation link, valid 24 h. */
  async invite(actor: AuditActor, body: CreateAccountDto): Promise<AccountCreatedDto> {
    const email = normalizeEmail(body.email);
    const scope = resolveScope(body.role, { partnerId: body.partner_id, placeIds: body.place_ids });
    await this.assertScopeExists(scope);
    const { account, link } = await this.transactions.run(async (manager) => {
      const created = await this.repository.insertAccount(manager, {
        email,
        name: body.name.trim(),
        role: body.role,
        partnerId: scope.partnerId,
        active: true,
      });
      await this.repository.setPlaces(manager, created.id, scope.placeIds);
      const passwordLink = await this.passwordLinks.create(manager, created.id, 'invitation');
      await this.audit.write(manager, actor, {
        action: 'account.invite',
        targetType: 'account',
        targetId: created.id,
        details: { email, role: body.role, partner_id: scope.partnerId, place_ids: scope.placeIds },
      });
      const stored = await this.repository.findAccount(created.id, manager);
      return { account: stored as AccountWithPlaces, link: passwordLink };
    }, ACCOUNTS_TRANSACTION);
    return { account: this.dto(account), password_link: link };
  }

  /** `active: false` ends the account's sessions in the same transaction. */
  async update(actor: AuditActor, id: string, body: UpdateAccountDto): Promise<AccountDto> {
    const account = await this.find(id);
    if (actor.type === 'account' && actor.id === String(account.id)) {
      if (
        (body.active !== undefined && !body.active) ||
        (body.role !== undefined && body.role !== account.role)
      )
        throw invalidParameter('accounts.selfChange');
    }
    const role = body.role ?? account.role;
    const scopeGiven = body.partner_id !== undefined || body.place_ids !== undefined;
    const scope = resolveScope(
      role,
      { partnerId: body.partner_id, placeIds: body.place_ids },
      role === account.role ? account : { partnerId: null, placeIds: [] },
    );
    if (scopeGiven || role !== account.role) await this.assertScopeExists(scope);
    const changes: AccountChanges = {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(role !== account.role && { role }),
      ...(scope.partnerId !== account.partnerId && { partnerId: scope.partnerId }),
      ...(body.active !== undefined && body.active !== account.active && { active: body.active }),
    };
    const placesChanged = scope.placeIds.join() !== account.placeIds.join();
    const updated = await this.transactions.run(async (manager) => {
      await this.repository.lockAccount(manager, account.id);
      await this.repository.updateAccount(manager, account.id, changes);
      if (placesChanged) await this.repository.setPlaces(manager, account.id, scope.placeIds);
      const ended =
        changes.active === false ? await this.repository.deleteSessionsOf(manager, account.id) : 0;
      const details = {
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.role !== undefined && { role: changes.role }),
        ...(changes.partnerId !== undefined && { partner_id: changes.partnerId }),
        ...(placesChanged && { place_ids: scope.placeIds }),
        ...(changes.active !== undefined && { active: changes.active }),
        ...(ended > 0 && { sessions_ended: ended }),
      };
      if (Object.keys(details).length > 0) {
        const action =
          changes.active === false ? 'account.disable' : changes.active ? 'account.enable' : 'account.update';
        await this.audit.write(manager, actor, {
          action,
          targetType: 'account',
          targetId: account.id,
          details,
        });
      }
      return (await this.repository.findAccount(account.id, manager)) as AccountWithPlaces;
    }, ACCOUNTS_TRANSACTION);
    return this.dto(updated);
  }

  /**
   * A new password link (a reset, or a new invitation while no password was ever set); the account's earlier
   * unused links stop working.
   */
  async passwordLink(actor: AuditActor, id: string): Promise<PasswordLinkDto> {
    const account = await this.find(id);
    if (!account.active) throw invalidParameter('accounts.disabled', { id: account.id });
    const purpose = account.passwordHash ? 'reset' : 'invitation';
    return this.transactions.run(async (manager) => {
      await this.repository.lockAccount(manager, account.id);
      const link = await this.passwordLinks.create(manager, account.id, purpose);
      await this.audit.write(manager, actor, {
        action: 'account.password_link',
        targetType: 'account',
        targetId: account.id,
        details: { purpose },
      });
      return link;
    }, ACCOUNTS_TRANSACTION);
  }

  private async assertScopeExists(scope: AccountScope): Promise<void> {
    if (scope.partnerId !== null && !(await this.partners.partnerExists(scope.partnerId))) {
      throw invalidParameter('accounts.partnerMissing', { id: scope.partnerId });
    }
    if (scope.placeIds.length > 0) {
      const found = await this.partners.existingPlaceIds(scope.placeIds);
      const missing = scope.placeIds.find((placeId) => !found.has(placeId));
      if (missing !== undefined) throw invalidParameter('accounts.placeMissing', { id: missing });
    }
  }

  private async find(id: string): Promise<AccountWithPlaces> {
    const account = await this.repository.findAccount(id);
    if (!account) throw notFound('accounts.notFound', { id });
    return account;
  }

  private dto(account: AccountWithPlaces): AccountDto {
    return toAccountDto(account, this.config.businessTimezone);
  }
}
