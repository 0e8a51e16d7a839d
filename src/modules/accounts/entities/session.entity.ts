import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

/**
 * A console session. The cookie holds a random token; only its SHA-256 is stored, so a copy of the table
 * opens no session. It ends after SESSION_IDLE_MINUTES without a request, at `expires_at`, on logout, and
 * when its account is disabled.
 */
@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Index('IDX_sessions_account')
  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId: number;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  /** Sent back as X-CSRF-Token on every change made with this session. */
  @Column({ name: 'csrf_token', type: 'varchar', length: 64 })
  csrfToken: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'datetime', precision: 3 })
  lastSeenAt: Date;

  /** The absolute end: sign-in + SESSION_LIFETIME_HOURS. */
  @Index('IDX_sessions_expires')
  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt: Date;

  @Column({ type: 'varchar', length: 45, nullable: true })
  address: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 255, nullable: true })
  userAgent: string | null;
}
