import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 10^12 + (n × 5562305830751 + 7368149) mod (9 × 10^12): 13 digits, first digit not 0, a different number for
 * every n below 9 × 10^12 (the multiplier has no factor 2, 3 or 5, so it is invertible modulo 9 × 10^12), and
 * consecutive ids get numbers far apart. DECIMAL arithmetic: the product does not fit in a BIGINT.
 */
function memberNumberSql(n: string): string {
  return `1000000000000 + MOD(CAST(${n} AS DECIMAL(30, 0)) * 5562305830751 + 7368149, 9000000000000)`;
}

/**
 * The identities of the Wellhub-compatible access control (CONTRACT.md): a 13-digit `member_number` on every
 * beneficiary, a `gym_id` on every place, a place's Wellhub-format subscription summary flag, the
 * subscription's payload format, and the gym systems' own codes for members (`custom_code`).
 *
 * member_number: existing rows are numbered in one UPDATE from their id (no loop, no per-row round trip; the
 * column is added instantly with a default of 0 and its unique index is built after the UPDATE, a sorted build
 * instead of ten million random index inserts). New rows are numbered by a BEFORE INSERT trigger from a
 * sequence that starts past the largest id numbered here, through the same bijection, so a number is never
 * given twice, not even after a beneficiary is gone or a table is emptied. `INCREMENT BY 0 NOCACHE`: the
 * form a sequence must have on a Galera cluster (each node then draws values of its own auto-increment
 * offset). The trigger owns the column: a value written by an INSERT is replaced.
 *
 * gym_id: an AUTO_INCREMENT column beside the uuid key, existing places numbered from 100001 as they are added.
 */
export class WellhubIdentities1795700000000 implements MigrationInterface {
  name = 'WellhubIdentities1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      "ALTER TABLE `beneficiaries` ADD `member_number` bigint UNSIGNED NOT NULL DEFAULT '0', ALGORITHM=INSTANT",
    );
    await queryRunner.query(`UPDATE \`beneficiaries\` SET \`member_number\` = ${memberNumberSql('`id`')}`);
    await queryRunner.query(
      'ALTER TABLE `beneficiaries` ADD UNIQUE INDEX `UQ_beneficiaries_member_number` (`member_number`)',
    );
    const [{ next }]: { next: string }[] = await queryRunner.query(
      'SELECT COALESCE(MAX(`id`), 0) + 1 AS next FROM `beneficiaries`',
    );
    await queryRunner.query(
      `CREATE SEQUENCE \`beneficiary_member_numbers\` START WITH ${Number(next)} INCREMENT BY 0 NOCACHE`,
    );
    await queryRunner.query(
      `CREATE TRIGGER \`beneficiaries_member_number\` BEFORE INSERT ON \`beneficiaries\` FOR EACH ROW
       SET NEW.\`member_number\` = ${memberNumberSql('NEXT VALUE FOR `beneficiary_member_numbers`')}`,
    );

    await queryRunner.query(
      'ALTER TABLE `places` ADD `gym_id` int UNSIGNED NOT NULL AUTO_INCREMENT, ' +
        'ADD UNIQUE INDEX `UQ_places_gym_id` (`gym_id`), AUTO_INCREMENT = 100001',
    );
    await queryRunner.query(
      "ALTER TABLE `places` ADD `wellhub_webhook` tinyint NOT NULL DEFAULT '0', ALGORITHM=INSTANT",
    );

    await queryRunner.query(
      "ALTER TABLE `webhook_subscriptions` ADD `format` varchar(16) NOT NULL DEFAULT 'standard', " +
        "ADD `additional_data` tinyint NOT NULL DEFAULT '0', ALGORITHM=INSTANT",
    );

    await queryRunner.query(
      `CREATE TABLE \`member_custom_codes\` (
         \`beneficiary_id\` int UNSIGNED NOT NULL,
         \`place_id\` char(36) NOT NULL,
         \`custom_code\` varchar(13) NOT NULL,
         \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
         \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
         INDEX \`IDX_member_custom_codes_place\` (\`place_id\`),
         PRIMARY KEY (\`beneficiary_id\`, \`place_id\`)
       ) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      'ALTER TABLE `member_custom_codes` ADD CONSTRAINT `FK_member_custom_codes_beneficiary` ' +
        'FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `member_custom_codes`');
    await queryRunner.query(
      'ALTER TABLE `webhook_subscriptions` DROP COLUMN `additional_data`, DROP COLUMN `format`',
    );
    await queryRunner.query('ALTER TABLE `places` DROP COLUMN `wellhub_webhook`');
    await queryRunner.query('ALTER TABLE `places` DROP INDEX `UQ_places_gym_id`, DROP COLUMN `gym_id`');
    await queryRunner.query('DROP TRIGGER `beneficiaries_member_number`');
    await queryRunner.query('DROP SEQUENCE `beneficiary_member_numbers`');
    await queryRunner.query(
      'ALTER TABLE `beneficiaries` DROP INDEX `UQ_beneficiaries_member_number`, DROP COLUMN `member_number`',
    );
  }
}
