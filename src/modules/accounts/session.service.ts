import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hashKey } from '../../common/crypto/key-vault';
import { DomainError } from '../../common/errors/domain-error';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuditLog } from '../audit/audit-log';
import { AuditActor, SessionAccount } from '../auth/caller';
import { normalizeEmail, toAccountDto } from './accounts.mappers';
import { AccountsRepository, ACCOUNTS_TRANSACTION } from './accounts.repository';
import { ConsolePermissionsReader } from './console-permissions';
import { SessionDto } from './dto/session.dto';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { Transactions } from '../../database/transactions';

/** A session's last request is written at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ClientInfo {
  address: string;
  userAgent: string | null;
  requestId: string;
}

export interface OpenedSession extends SessionDto {
  /** The cookie's value; only its hash is stored. */
  token: string;
}

/** A session that is still alive, with its account as it is now. */
export interface LiveSession {
  tokenHash: string;
  csrfToken: string;
  account: SessionAccount;
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export const sessionEnded = () => new DomainError('invalid_session', 'session.ended');

/** Sign-in, the sessions behind the console's cookie, and sign-out. Sessions live in MariaDB. */
@Injectable()
export class SessionService {
  private readonly logger = new Logger(SessionService.name);

  constructor(
    private readonly repository: AccountsRepository,
    private readonly transactions: Transactions,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly permissions: ConsolePermissionsReader,
  ) {}

  private get idleMs(): number {
    return this.config.sessionIdleMinutes * 60_000;
  }

  /**
   * One answer for an unknown e-mail, a wrong password, an account without a password yet and a disabled
   * account; each counts as a failure of the e-mail and of the address.
   */
  async login(rawEmail: string, password: string, client: ClientInfo): Promise<OpenedSession> {
    const email = normalizeEmail(rawEmail);
    await this.throttle.assertAllowed(email, client.address);
    const account = await this.repository.findAccountByEmail(email);
    const matches = account?.passwordHash
      ? await this.hasher.verify(account.passwordHash, password)
      : await this.hasher.verifyNothing(password);
    if (!account || !matches || !account.active) {
      await this.throttle.recordFailure(email, client.address);
      throw new DomainError('invalid_credentials', 'session.invalidCredentials');
    }
    const now = this.clock.now();
    const token = randomToken();
    const csrfToken = randomToken();
    const rehash =
      account.passwordHash && this.hasher.needsRehash(account.passwordHash)
        ? await this.hasher.hash(password)
        : undefined;
    const actor: AuditActor = {
      type: 'account',
      id: String(account.id),
      label: account.email,
      address: client.address,
      requestId: client.requestId,
    };
    await this.transactions.run(async (manager) => {
      await this.repository.lockAccount(manager, account.id);
      await this.repository.insertSession(manager, {
        tokenHash: hashKey(token),
        accountId: account.id,
        csrfToken,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + this.config.sessionLifetimeHours * 3_600_000),
        address: client.address.slice(0, 45),
        userAgent: client.userAgent?.slice(0, 255) ?? null,
      });
      await this.repository.markLogin(manager, account.id, now, rehash);
      await this.throttle.clear(manager, email);
      await this.audit.write(manager, actor, {
        action: 'session.login',
        targetType: 'account',
        targetId: account.id,
      });
    }, ACCOUNTS_TRANSACTION);
    this.repository
      .purgeSessions(now, new Date(now.getTime() - this.idleMs))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'Cannot purge ended sessions'));
    const placeIds = await this.repository.placeIdsOf(account.id);
    return {
      token,
      csrf_token: csrfToken,
      account: toAccountDto({ ...account, lastLoginAt: now, placeIds }, this.config.businessTimezone),
      permissions: this.permissions.permissionsOf(account),
    };
  }

  /**
   * The live session of a cookie's token, with its account read now (so a change of role or scope counts at
   * once), or 401 `invalid_session`: unknown, logged out, idle too long, past its lifetime, account disabled.
   */
  async resume(token: string | undefined): Promise<LiveSession> {
    if (!token || token.length > 128) throw sessionEnded();
    const tokenHash = hashKey(token);
    const row = await this.repository.findSession(tokenHash);
    if (!row) throw sessionEnded();
    const now = this.clock.now();
    const idle = now.getTime() - row.lastSeenAt.getTime();
    if (!Number(row.active) || row.expiresAt <= now || idle >= this.idleMs) {
      await this.transactions.run(
        (manager) => this.repository.deleteSession(manager, tokenHash),
        ACCOUNTS_TRANSACTION,
      );
      throw sessionEnded();
    }
    if (idle >= TOUCH_INTERVAL_MS) await this.repository.touchSession(tokenHash, now);
    const placeIds =
      row.role === 'gym' && row.partnerId === null ? await this.repository.placeIdsOf(row.accountId) : [];
    return {
      tokenHash,
      csrfToken: row.csrfToken,
      account: {
        id: row.accountId,
        email: row.email,
        name: row.name,
        role: row.role,
        partnerId: row.partnerId,
        placeIds,
      },
    };
  }

  /** The account of a live session, for GET /account/session. */
  async describe(session: LiveSession): Promise<SessionDto> {
    const account = await this.repository.findAccount(session.account.id);
    if (!account) throw sessionEnded();
    return {
      account: toAccountDto(account, this.config.businessTimezone),
      csrf_token: session.csrfToken,
      permissions: this.permissions.permissionsOf(account),
    };
  }

  async logout(session: LiveSession, actor: AuditActor): Promise<void> {
    await this.transactions.run(async (manager) => {
      if (!(await this.repository.deleteSession(manager, session.tokenHash))) return;
      await this.audit.write(manager, actor, {
        action: 'session.logout',
        targetType: 'account',
        targetId: session.account.id,
      });
    }, ACCOUNTS_TRANSACTION);
  }
}
