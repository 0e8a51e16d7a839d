import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const ACTOR_TYPES = ['account', 'admin-token', 'place'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** One change (or key reveal): who made it, from where, to what. Written in the change's own transaction. */
@Entity('audit_entries')
@Index('IDX_audit_entries_at', ['at'])
@Index('IDX_audit_entries_actor', ['actorType', 'actorId', 'at'])
@Index('IDX_audit_entries_action', ['action', 'at'])
@Index('IDX_audit_entries_target', ['targetType', 'targetId', 'at'])
export class AuditEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id: string;

  @Column({ type: 'datetime', precision: 3 })
  at: Date;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType: ActorType;

  /** The account id or the place id; null for the admin token. */
  @Column({ name: 'actor_id', type: 'varchar', length: 64, nullable: true })
  actorId: string | null;

  /** The account's e-mail, the place's name, or `admin-token`, as they were at the time. */
  @Column({ name: 'actor_label', type: 'varchar', length: 255 })
  actorLabel: string;

  /** A dotted verb: `place.create`, `place.key.rotate`, `key.reveal`, `session.login`, ... */
  @Column({ type: 'varchar', length: 64 })
  action: string;

  @Column({ name: 'target_type', type: 'varchar', length: 32, nullable: true })
  targetType: string | null;

  @Column({ name: 'target_id', type: 'varchar', length: 64, nullable: true })
  targetId: string | null;

  @Column({ type: 'varchar', length: 45, nullable: true })
  address: string | null;

  @Column({ name: 'request_id', type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  /** JSON: what changed (never a key, a secret or a password). */
  @Column({ type: 'text', nullable: true })
  details: string | null;
}
