import { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency keys compared byte for byte: under the database's case-insensitive collation `abc` was `ABC`. */
export class IdempotencyKeysCaseSensitive1795439450592 implements MigrationInterface {
  name = 'IdempotencyKeysCaseSensitive1795439450592';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `idempotency_records` MODIFY `idempotency_key` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Keys that differ only in case would collide again: keep the first of each.
    await queryRunner.query(
      `DELETE r FROM \`idempotency_records\` r JOIN \`idempotency_records\` o
         ON o.place_id = r.place_id AND LOWER(o.idempotency_key) = LOWER(r.idempotency_key)
        AND o.idempotency_key <> r.idempotency_key AND (o.created_at, o.idempotency_key) < (r.created_at, r.idempotency_key)`,
    );
    await queryRunner.query(
      'ALTER TABLE `idempotency_records` MODIFY `idempotency_key` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL',
    );
  }
}
