import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IDENTIFIER } from '../../../database/identifier-column';

/** The first outcome of a register sent with an `Idempotency-Key`, replayed for 24 hours. */
@Entity('idempotency_records')
@Index('UQ_idempotency_records_place_key', ['placeId', 'idempotencyKey'], { unique: true })
export class IdempotencyRecordEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id: string;

  @Column({ name: 'place_id', type: 'char', length: 36, ...IDENTIFIER })
  placeId: string;

  /** Compared byte for byte: `abc` and `ABC` are two keys. */
  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, collation: 'utf8mb4_bin' })
  idempotencyKey: string;

  /** SHA-256 of the normalized request, so a key reused for another request is refused. */
  @Column({ name: 'request_hash', type: 'char', length: 64 })
  requestHash: string;

  @Column({ name: 'status_code', type: 'smallint', unsigned: true })
  statusCode: number;

  @Column({ name: 'error_label', type: 'varchar', length: 64, nullable: true })
  errorLabel: string | null;

  @Column({ name: 'error_detail', type: 'varchar', length: 1000, nullable: true })
  errorDetail: string | null;

  /** Indexed for the hourly purge of records past their 24 hours. */
  @Index('IDX_idempotency_records_created')
  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;
}
