import { MigrationInterface, QueryRunner } from 'typeorm';

export class PlaceCheckInSummary1795433491511 implements MigrationInterface {
  name = 'PlaceCheckInSummary1795433491511';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`places\` ADD \`check_in_plans\` text NULL`);
    await queryRunner.query(`ALTER TABLE \`places\` ADD \`check_in_webhook\` tinyint NOT NULL DEFAULT 0`);
    // Fill the summary of the places that exist; from now on PlaceSummaryRepository keeps it.
    await queryRunner.query(
      `UPDATE places p SET
               p.check_in_plans = (SELECT JSON_ARRAYAGG(JSON_OBJECT('id', pl.id, 'code', pl.code, 'tier', pl.tier))
                                     FROM plans pl WHERE pl.place_id = p.id AND pl.deleted_at IS NULL),
               p.check_in_webhook = EXISTS(SELECT 1 FROM webhook_subscriptions s
                                            WHERE s.place_id = p.id AND s.type = 'CHECKIN' AND s.active = 1)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`places\` DROP COLUMN \`check_in_webhook\``);
    await queryRunner.query(`ALTER TABLE \`places\` DROP COLUMN \`check_in_plans\``);
  }
}
