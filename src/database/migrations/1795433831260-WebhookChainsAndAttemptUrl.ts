import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookChainsAndAttemptUrl1795433831260 implements MigrationInterface {
  name = 'WebhookChainsAndAttemptUrl1795433831260';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`webhook_deliveries\` ADD \`redeliveries\` int UNSIGNED NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(`ALTER TABLE \`webhook_attempts\` ADD \`url\` varchar(2048) NOT NULL`);
    // Until now every attempt went to the URL frozen on its delivery.
    await queryRunner.query(
      `UPDATE \`webhook_attempts\` a JOIN \`webhook_deliveries\` d ON d.\`id\` = a.\`delivery_id\` SET a.\`url\` = d.\`url\``,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`webhook_attempts\` DROP COLUMN \`url\``);
    await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` DROP COLUMN \`redeliveries\``);
  }
}
