import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { hashKey } from '../../common/crypto/key-vault';
import { notFound } from '../../common/errors/domain-error';
import { formatInZone } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuditLog } from '../audit/audit-log';
import { AuditActor } from '../auth/caller';
import { AccountsRepository, PasswordLinkRow, ACCOUNTS_TRANSACTION } from './accounts.repository';
import { PasswordLinkDto } from './dto/account.dto';
import { PasswordLinkInfoDto } from './dto/session.dto';
import { PasswordLinkPurpose } from './entities/password-link.entity';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { ClientInfo, randomToken } from './session.service';
import { Transactions } from '../../database/transactions';

export const PASSWORD_LINK_TTL_MS = 24 * 3_600_000;

const linkGone = () => notFound('passwordLink.notFound');

/** One-time links (24 h) that set an account's password: invitations and resets, made by an operator. */
@Injectable()
export class PasswordLinksService {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly transactions: Transactions,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A new link for the account, in the caller's transaction, which holds the account's row locked; the
   * account's earlier unused links stop working.
   */
  async create(
    manager: EntityManager,
    accountId: number,
    purpose: PasswordLinkPurpose,
  ): Promise<PasswordLinkDto> {
    const now = this.clock.now();
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_MS);
    await this.repository.deleteUnusedPasswordLinks(manager, accountId);
    await this.repository.insertPasswordLink(manager, {
      tokenHash: hashKey(token),
      accountId,
      purpose,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    return {
      // In the fragment: browsers never send it, so the token stays out of every server's log.
      url: `${this.config.publicBaseUrl}/console/#/set-password/${token}`,
      expires_at: formatInZone(expiresAt, this.config.businessTimezone),
    };
  }

  async describe(token: string): Promise<PasswordLinkInfoDto> {
    const link = await this.usable(token);
    return {
      email: link.email,
      name: link.name,
      purpose: link.purpose,
      expires_at: formatInZone(link.expiresAt, this.config.businessTimezone),
    };
  }

  /** Sets the password and uses the link up; a reset also ends the account's sessions. Does not sign in. */
  async setPassword(token: string, password: string, client: ClientInfo): Promise<void> {
    const link = await this.usable(token);
    const passwordHash = await this.hasher.hash(password);
    const actor: AuditActor = {
      type: 'account',
      id: String(link.accountId),
      label: link.email,
      address: client.address,
      requestId: client.requestId,
    };
    await this.transactions.run(async (manager) => {
      await this.repository.lockAccount(manager, link.accountId);
      // Two requests with the same link: only the first one uses it.
      if (!(await this.repository.usePasswordLink(manager, link.tokenHash, this.clock.now())))
        throw linkGone();
      await this.repository.setPassword(manager, link.accountId, passwordHash);
      const ended =
        link.purpose === 'reset' ? await this.repository.deleteSessionsOf(manager, link.accountId) : 0;
      await this.throttle.clear(manager, link.email);
      await this.audit.write(manager, actor, {
        action: 'account.password.set',
        targetType: 'account',
        targetId: link.accountId,
        details: { purpose: link.purpose, sessions_ended: ended },
      });
    }, ACCOUNTS_TRANSACTION);
  }

  /** The link, while it is unused, unexpired and its account active; 404 otherwise (which one is not said). */
  private async usable(token: string): Promise<PasswordLinkRow> {
    if (!token || token.length > 128) throw linkGone();
    const link = await this.repository.findPasswordLink(hashKey(token));
    if (!link || link.usedAt || link.expiresAt <= this.clock.now() || !Number(link.active)) throw linkGone();
    return link;
  }
}
