import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/**
 * `created_at` and `updated_at` as every table that has them declares them: `datetime(3)`, set by MariaDB
 * on insert, and on every update for `updated_at`. Entities extend it rather than repeat the two columns.
 */
export abstract class Timestamped {
  @CreateDateColumn({
    name: 'created_at',
    type: 'datetime',
    precision: 3,
    default: () => 'CURRENT_TIMESTAMP(3)',
  })
  createdAt: Date;

  @UpdateDateColumn({
    name: 'updated_at',
    type: 'datetime',
    precision: 3,
    default: () => 'CURRENT_TIMESTAMP(3)',
    onUpdate: 'CURRENT_TIMESTAMP(3)',
  })
  updatedAt: Date;
}
