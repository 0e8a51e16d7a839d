import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The database becomes the only record of when each delivery attempt is due: `next_attempt_at` on every
 * delivery still on its way, `queued_at` only while an attempt sits in the queue. Deliveries on their way
 * are put back to wait for their time (jobs of the old layout send nothing), and each endpoint gets a
 * circuit breaker row when it first fails.
 */
export class WebhookDueSchedule1795538461123 implements MigrationInterface {
  name = 'WebhookDueSchedule1795538461123';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`webhook_endpoint_states\` (\`subscription_id\` char(36) NOT NULL, \`failures\` int UNSIGNED NOT NULL DEFAULT '0', \`opens\` int UNSIGNED NOT NULL DEFAULT '0', \`open_until\` datetime(3) NULL, \`opened_at\` datetime(3) NULL, \`last_error\` varchar(1000) NULL, \`last_failure_at\` datetime(3) NULL, PRIMARY KEY (\`subscription_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `UPDATE \`webhook_deliveries\` SET \`queued_at\` = NULL, \`next_attempt_at\` = COALESCE(\`next_attempt_at\`, \`created_at\`) WHERE \`status\` IN ('pending', 'queued')`,
    );
    await queryRunner.query(
      `UPDATE \`webhook_deliveries\` SET \`queued_at\` = NULL, \`next_attempt_at\` = NULL WHERE \`status\` IN ('delivered', 'failed')`,
    );
    await queryRunner.query(
      `CREATE INDEX \`IDX_webhook_deliveries_due\` ON \`webhook_deliveries\` (\`queued_at\`, \`next_attempt_at\`, \`subscription_id\`)`,
    );
    await queryRunner.query(
      `CREATE INDEX \`IDX_webhook_deliveries_endpoint_due\` ON \`webhook_deliveries\` (\`subscription_id\`, \`queued_at\`, \`next_attempt_at\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_webhook_deliveries_endpoint_due\` ON \`webhook_deliveries\``);
    await queryRunner.query(`DROP INDEX \`IDX_webhook_deliveries_due\` ON \`webhook_deliveries\``);
    await queryRunner.query(`DROP TABLE \`webhook_endpoint_states\``);
  }
}
