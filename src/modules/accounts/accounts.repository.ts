import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { invalidParameter } from '../../common/errors/domain-error';
import { escapeLike } from '../../database/like';
import { isDuplicateKey } from '../../database/mysql-errors';
import { TransactionOptions } from '../../database/transactions';
import { AccountPlaceEntity } from './entities/account-place.entity';
import { AccountEntity, Role } from './entities/account.entity';
import { PasswordLinkEntity } from './entities/password-link.entity';
import { SessionEntity } from './entities/session.entity';

/** An account with the places it lists (empty unless it is a gym account of listed places). */
export interface AccountWithPlaces extends AccountEntity {
  placeIds: string[];
}

/** A session row and the account it belongs to, as one query reads them. */
export interface SessionRow {
  tokenHash: string;
  csrfToken: string;
  lastSeenAt: Date;
  expiresAt: Date;
  accountId: number;
  email: string;
  name: string;
  role: Role;
  partnerId: number | null;
  active: number;
}

export interface PasswordLinkRow {
  tokenHash: string;
  purpose: PasswordLinkEntity['purpose'];
  expiresAt: Date;
  usedAt: Date | null;
  accountId: number;
  email: string;
  name: string;
  active: number;
}

export interface AccountFilter {
  q?: string;
  role?: Role;
}

export type NewAccount = Pick<AccountEntity, 'email' | 'name' | 'role' | 'partnerId' | 'active'>;
export type AccountChanges = Partial<Pick<AccountEntity, 'name' | 'role' | 'partnerId' | 'active'>>;

const ACCOUNT_ID = /^\d{1,10}$/;

/**
 * How every transaction of the accounts' tables runs (`Transactions.run(work, ACCOUNTS_TRANSACTION)`). Every one
 * that changes an account's password, links, sessions or places locks the account's row first (`lockAccount`),
 * so writers of one account queue instead of deadlocking; in READ COMMITTED, so that the range deletes of one
 * account (its unused links, its places) lock no index gap that another account's insert needs: in REPEATABLE
 * READ, 24 password links, sign-ins or invitations at once answered 500 `ER_LOCK_DEADLOCK`, for one account or
 * for 24. A deadlock that still happens runs the whole transaction again from its start (Transactions).
 */
export const ACCOUNTS_TRANSACTION: TransactionOptions = { isolation: 'READ COMMITTED' };

/** Accounts, their sessions, their password links and the failed sign-ins. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  // Accounts

  /** Locks the account's row until the transaction ends: the first statement of every change to it. */
  async lockAccount(manager: EntityManager, id: number): Promise<void> {
    await manager.query('SELECT id FROM accounts WHERE id = ? FOR UPDATE', [id]);
  }

  async insertAccount(manager: EntityManager, values: NewAccount): Promise<AccountEntity> {
    try {
      const accounts = manager.getRepository(AccountEntity);
      return await accounts.save(accounts.create(values));
    } catch (error) {
      if (isDuplicateKey(error)) throw invalidParameter('accounts.emailTaken', { value: values.email });
      throw error;
    }
  }

  async updateAccount(manager: EntityManager, id: number, changes: AccountChanges): Promise<void> {
    if (Object.keys(changes).length > 0) await manager.getRepository(AccountEntity).update(id, changes);
  }

  async setPassword(manager: EntityManager, id: number, passwordHash: string): Promise<void> {
    await manager.getRepository(AccountEntity).update(id, { passwordHash });
  }

  async markLogin(manager: EntityManager, id: number, at: Date, passwordHash?: string): Promise<void> {
    await manager
      .getRepository(AccountEntity)
      .update(id, { lastLoginAt: at, ...(passwordHash && { passwordHash }) });
  }

  /** Replaces the places an account lists. */
  async setPlaces(manager: EntityManager, accountId: number, placeIds: string[]): Promise<void> {
    await manager.delete(AccountPlaceEntity, { accountId });
    if (placeIds.length > 0)
      await manager.insert(
        AccountPlaceEntity,
        placeIds.map((placeId) => ({ accountId, placeId })),
      );
  }

  findAccountByEmail(email: string): Promise<AccountEntity | null> {
    return this.dataSource.getRepository(AccountEntity).findOne({ where: { email } });
  }

  /** `id` as it came in the path: anything that is not an account id finds nothing. */
  async findAccount(
    id: string | number,
    manager = this.dataSource.manager,
  ): Promise<AccountWithPlaces | null> {
    if (!ACCOUNT_ID.test(String(id))) return null;
    const account = await manager.getRepository(AccountEntity).findOne({ where: { id: Number(id) } });
    if (!account) return null;
    return Object.assign(account, { placeIds: await this.placeIdsOf(account.id, manager) });
  }

  async placeIdsOf(accountId: number, manager = this.dataSource.manager): Promise<string[]> {
    const rows: { placeId: string }[] = await manager.query(
      'SELECT place_id AS placeId FROM account_places WHERE account_id = ? ORDER BY place_id',
      [accountId],
    );
    return rows.map((row) => row.placeId);
  }

  /** Accounts by e-mail; `q` matches part of the e-mail or the name. */
  async listAccounts(
    filter: AccountFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: AccountWithPlaces[]; total: number }> {
    const query = this.dataSource.getRepository(AccountEntity).createQueryBuilder('a');
    if (filter.q) {
      query.andWhere('(a.email LIKE :q OR a.name LIKE :q)', { q: `%${escapeLike(filter.q)}%` });
    }
    if (filter.role) query.andWhere('a.role = :role', { role: filter.role });
    const [accounts, total] = await query
      .orderBy('a.email', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
    const places = new Map<number, string[]>();
    if (accounts.length > 0) {
      const rows: { accountId: number; placeId: string }[] = await this.dataSource.query(
        `SELECT account_id AS accountId, place_id AS placeId FROM account_places
         WHERE account_id IN (?) ORDER BY place_id`,
        [accounts.map((account) => account.id)],
      );
      for (const row of rows) places.set(row.accountId, [...(places.get(row.accountId) ?? []), row.placeId]);
    }
    return {
      rows: accounts.map((account) => Object.assign(account, { placeIds: places.get(account.id) ?? [] })),
      total,
    };
  }

  // Sessions

  async insertSession(manager: EntityManager, values: SessionEntity): Promise<void> {
    await manager.insert(SessionEntity, values);
  }

  async findSession(tokenHash: string): Promise<SessionRow | undefined> {
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT s.token_hash AS tokenHash, s.csrf_token AS csrfToken, s.last_seen_at AS lastSeenAt,
              s.expires_at AS expiresAt, a.id AS accountId, a.email, a.name, a.role, a.partner_id AS partnerId,
              a.active
       FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?`,
      [tokenHash],
    );
    return rows[0];
  }

  async touchSession(tokenHash: string, at: Date): Promise<void> {
    await this.dataSource.query(
      'UPDATE sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?',
      [at, tokenHash, at],
    );
  }

  /** Deletes one session; true when it existed. */
  async deleteSession(manager: EntityManager, tokenHash: string): Promise<boolean> {
    const result = await manager.delete(SessionEntity, { tokenHash });
    return (result.affected ?? 0) > 0;
  }

  /** Ends every session of an account. */
  async deleteSessionsOf(manager: EntityManager, accountId: number): Promise<number> {
    const result = await manager.delete(SessionEntity, { accountId });
    return result.affected ?? 0;
  }

  /** Sessions past their absolute end or idle since before `idleBefore`. */
  async purgeSessions(now: Date, idleBefore: Date): Promise<void> {
    await this.dataSource.query('DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?', [
      now,
      idleBefore,
    ]);
  }

  // Password links

  async insertPasswordLink(manager: EntityManager, values: PasswordLinkEntity): Promise<void> {
    await manager.insert(PasswordLinkEntity, values);
  }

  /** Earlier links of the account that were not used stop working. */
  async deleteUnusedPasswordLinks(manager: EntityManager, accountId: number): Promise<void> {
    await manager.query('DELETE FROM password_links WHERE account_id = ? AND used_at IS NULL', [accountId]);
  }

  async findPasswordLink(tokenHash: string): Promise<PasswordLinkRow | undefined> {
    const rows: PasswordLinkRow[] = await this.dataSource.query(
      `SELECT l.token_hash AS tokenHash, l.purpose, l.expires_at AS expiresAt, l.used_at AS usedAt,
              a.id AS accountId, a.email, a.name, a.active
       FROM password_links l JOIN accounts a ON a.id = l.account_id WHERE l.token_hash = ?`,
      [tokenHash],
    );
    return rows[0];
  }

  /** Uses the link up; false when another request used it first or it expired meanwhile. */
  async usePasswordLink(manager: EntityManager, tokenHash: string, at: Date): Promise<boolean> {
    const result: { affectedRows: number } = await manager.query(
      'UPDATE password_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
      [at, tokenHash, at],
    );
    return result.affectedRows > 0;
  }

  // Failed sign-ins

  /** When the latest failures of a subject since `since` happened, newest first, at most `limit`. */
  async recentFailures(subject: string, since: Date, limit: number): Promise<Date[]> {
    const rows: { createdAt: Date }[] = await this.dataSource.query(
      `SELECT created_at AS createdAt FROM login_failures WHERE subject = ? AND created_at > ?
       ORDER BY created_at DESC LIMIT ?`,
      [subject, since, limit],
    );
    return rows.map((row) => row.createdAt);
  }

  async recordFailures(subjects: string[], at: Date, purgeBefore: Date): Promise<void> {
    await this.dataSource.query('INSERT INTO login_failures (subject, created_at) VALUES ?', [
      subjects.map((subject) => [subject, at]),
    ]);
    await this.dataSource.query('DELETE FROM login_failures WHERE created_at <= ? LIMIT 1000', [purgeBefore]);
  }

  async clearFailures(manager: EntityManager, subject: string): Promise<void> {
    await manager.query('DELETE FROM login_failures WHERE subject = ?', [subject]);
  }
}
