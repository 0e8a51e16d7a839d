import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookOutbox1795365318295 implements MigrationInterface {
  name = 'WebhookOutbox1795365318295';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`webhook_subscriptions\` (\`id\` char(36) NOT NULL, \`place_id\` char(36) NOT NULL, \`type\` varchar(32) NOT NULL, \`url\` varchar(2048) NOT NULL, \`secret_ciphertext\` varchar(255) NOT NULL, \`active\` tinyint NOT NULL DEFAULT 1, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), UNIQUE INDEX \`UQ_webhook_subscriptions_place_type\` (\`place_id\`, \`type\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`webhook_events\` (\`id\` varchar(40) NOT NULL, \`place_id\` char(36) NOT NULL, \`type\` varchar(32) NOT NULL, \`payload\` mediumtext NOT NULL, \`created_at\` datetime(3) NOT NULL, INDEX \`IDX_webhook_events_place_created\` (\`place_id\`, \`created_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`webhook_deliveries\` (\`id\` varchar(40) NOT NULL, \`event_id\` varchar(40) NOT NULL, \`subscription_id\` char(36) NOT NULL, \`place_id\` char(36) NOT NULL, \`url\` varchar(2048) NOT NULL, \`status\` varchar(16) NOT NULL, \`attempts\` int UNSIGNED NOT NULL DEFAULT '0', \`last_status_code\` smallint UNSIGNED NULL, \`last_error\` varchar(1000) NULL, \`last_attempt_at\` datetime(3) NULL, \`next_attempt_at\` datetime(3) NULL, \`queued_at\` datetime(3) NULL, \`delivered_at\` datetime(3) NULL, \`created_at\` datetime(3) NOT NULL, INDEX \`IDX_webhook_deliveries_place\` (\`place_id\`, \`created_at\`), INDEX \`IDX_webhook_deliveries_status\` (\`status\`, \`created_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`webhook_attempts\` (\`id\` bigint UNSIGNED NOT NULL AUTO_INCREMENT, \`delivery_id\` varchar(40) NOT NULL, \`number\` int UNSIGNED NOT NULL, \`status_code\` smallint UNSIGNED NULL, \`duration_ms\` int UNSIGNED NOT NULL, \`response_body\` text NULL, \`error\` varchar(1000) NULL, \`created_at\` datetime(3) NOT NULL, INDEX \`IDX_webhook_attempts_delivery\` (\`delivery_id\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_webhook_attempts_delivery\` ON \`webhook_attempts\``);
    await queryRunner.query(`DROP TABLE \`webhook_attempts\``);
    await queryRunner.query(`DROP INDEX \`IDX_webhook_deliveries_status\` ON \`webhook_deliveries\``);
    await queryRunner.query(`DROP INDEX \`IDX_webhook_deliveries_place\` ON \`webhook_deliveries\``);
    await queryRunner.query(`DROP TABLE \`webhook_deliveries\``);
    await queryRunner.query(`DROP INDEX \`IDX_webhook_events_place_created\` ON \`webhook_events\``);
    await queryRunner.query(`DROP TABLE \`webhook_events\``);
    await queryRunner.query(
      `DROP INDEX \`UQ_webhook_subscriptions_place_type\` ON \`webhook_subscriptions\``,
    );
    await queryRunner.query(`DROP TABLE \`webhook_subscriptions\``);
  }
}
