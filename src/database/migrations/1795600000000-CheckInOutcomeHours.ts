import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckInOutcomeHours1795600000000 implements MigrationInterface {
  name = 'CheckInOutcomeHours1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`check_in_outcome_hours\` (\`hour\` datetime NOT NULL, \`place_id\` char(36) NOT NULL, \`operation\` varchar(16) NOT NULL, \`outcome\` varchar(64) NOT NULL, \`answers\` int UNSIGNED NOT NULL, INDEX \`IDX_check_in_outcome_hours_place\` (\`place_id\`, \`hour\`), PRIMARY KEY (\`hour\`, \`place_id\`, \`operation\`, \`outcome\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_check_in_outcome_hours_place\` ON \`check_in_outcome_hours\``);
    await queryRunner.query(`DROP TABLE \`check_in_outcome_hours\``);
  }
}
