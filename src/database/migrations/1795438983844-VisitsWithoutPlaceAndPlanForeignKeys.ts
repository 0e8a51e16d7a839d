import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Visits keep the beneficiary's foreign key only: the checks on the place and the plan took a shared lock on
 * one hot parent row per gym in every check-in (see VisitEntity). The index MariaDB made for the plan's key
 * served nothing else.
 */
export class VisitsWithoutPlaceAndPlanForeignKeys1795438983844 implements MigrationInterface {
  name = 'VisitsWithoutPlaceAndPlanForeignKeys1795438983844';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`visits\` DROP FOREIGN KEY \`FK_3e9aa879f752ac9136a9de28dfb\``);
    await queryRunner.query(`ALTER TABLE \`visits\` DROP FOREIGN KEY \`FK_dac12a0e25c86b2a4af0b805edd\``);
    await queryRunner.query(`ALTER TABLE \`visits\` DROP INDEX \`FK_dac12a0e25c86b2a4af0b805edd\``);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`visits\` ADD CONSTRAINT \`FK_dac12a0e25c86b2a4af0b805edd\` FOREIGN KEY (\`plan_id\`) REFERENCES \`plans\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`visits\` ADD CONSTRAINT \`FK_3e9aa879f752ac9136a9de28dfb\` FOREIGN KEY (\`place_id\`) REFERENCES \`places\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }
}
