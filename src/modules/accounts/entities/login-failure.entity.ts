import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One failed sign-in, counted against the e-mail it named (`account:<email>`, whether or not such an account
 * exists) and against the client address (`address:<ip>`). Rows older than the window are purged.
 */
@Entity('login_failures')
@Index('IDX_login_failures_subject_created', ['subject', 'createdAt'])
@Index('IDX_login_failures_created', ['createdAt'])
export class LoginFailureEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id: string;

  @Column({ type: 'varchar', length: 300 })
  subject: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
