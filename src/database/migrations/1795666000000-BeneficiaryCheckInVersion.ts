import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A counter on each beneficiary that every transaction recording a visit or changing a member check-in of theirs
 * increments. On one server the beneficiary's row lock already puts those transactions in line; on a Galera
 * cluster a row lock taken on one node does not stop another node, but two writes of the same row do conflict
 * at certification, and the later transaction fails and runs again (reading the first one's visit).
 */
export class BeneficiaryCheckInVersion1795666000000 implements MigrationInterface {
  name = 'BeneficiaryCheckInVersion1795666000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      "ALTER TABLE `beneficiaries` ADD `check_in_version` bigint UNSIGNED NOT NULL DEFAULT '0'",
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `beneficiaries` DROP COLUMN `check_in_version`');
  }
}
