import { MigrationInterface, QueryRunner } from 'typeorm';

const PENDING_EXPRESSION = "IF(`status` = 'pending', 1, NULL)";

/**
 * Member check-ins, made in the platform's app and confirmed by the gym, and the per-gym counters of failed
 * check-in token look-ups. `pending` is 1 while a check-in is pending and NULL otherwise, so the unique indexes
 * that lead with it hold "one pending check-in per beneficiary" and "one pending check-in per token at a gym"
 * and nothing about the rest. TypeORM keeps the expression of a generated column in `typeorm_metadata`, keyed
 * by database: it is written for whichever database this runs in.
 */
export class MemberCheckIns1795452238501 implements MigrationInterface {
  name = 'MemberCheckIns1795452238501';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`token_lookup_failures\` (
        \`place_id\` char(36) NOT NULL, \`window_start\` datetime NOT NULL, \`failures\` int UNSIGNED NOT NULL,
        PRIMARY KEY (\`place_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`member_check_ins\` (
        \`id\` char(36) NOT NULL, \`beneficiary_id\` int UNSIGNED NOT NULL, \`place_id\` char(36) NOT NULL,
        \`plan_id\` int UNSIGNED NULL, \`token\` char(6) NOT NULL, \`confirmation_token_hash\` char(64) NOT NULL,
        \`status\` varchar(16) NOT NULL, \`cancel_reason\` varchar(16) NULL, \`started_at\` datetime(3) NOT NULL,
        \`expires_at\` datetime(3) NOT NULL, \`validated_at\` datetime(3) NULL, \`cancelled_at\` datetime(3) NULL,
        \`visit_id\` bigint UNSIGNED NULL,
        \`pending\` tinyint UNSIGNED AS (${PENDING_EXPRESSION}) STORED,
        INDEX \`IDX_member_check_ins_beneficiary_started\` (\`beneficiary_id\`, \`started_at\`),
        INDEX \`IDX_member_check_ins_place_started\` (\`place_id\`, \`started_at\`),
        INDEX \`IDX_member_check_ins_place_token\` (\`place_id\`, \`token\`),
        UNIQUE INDEX \`UQ_member_check_ins_confirmation\` (\`confirmation_token_hash\`),
        UNIQUE INDEX \`UQ_member_check_ins_pending_token\` (\`pending\`, \`place_id\`, \`token\`),
        UNIQUE INDEX \`UQ_member_check_ins_pending_beneficiary\` (\`pending\`, \`beneficiary_id\`),
        PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      'INSERT INTO `typeorm_metadata` (`database`, `schema`, `table`, `type`, `name`, `value`) VALUES (DEFAULT, ?, ?, ?, ?, ?)',
      [
        await queryRunner.getCurrentDatabase(),
        'member_check_ins',
        'GENERATED_COLUMN',
        'pending',
        PENDING_EXPRESSION,
      ],
    );
    await queryRunner.query(
      'ALTER TABLE `member_check_ins` ADD CONSTRAINT `FK_4451c16a95fae340a1aa5422d98` FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `member_check_ins` DROP FOREIGN KEY `FK_4451c16a95fae340a1aa5422d98`',
    );
    await queryRunner.query(
      'DELETE FROM `typeorm_metadata` WHERE `type` = ? AND `name` = ? AND `schema` = ? AND `table` = ?',
      ['GENERATED_COLUMN', 'pending', await queryRunner.getCurrentDatabase(), 'member_check_ins'],
    );
    await queryRunner.query('DROP TABLE `member_check_ins`');
    await queryRunner.query('DROP TABLE `token_lookup_failures`');
  }
}
