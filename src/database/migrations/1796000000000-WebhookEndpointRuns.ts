import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's deliveries are sent by one run at a time, which holds the endpoint in its state row (`run_id`,
 * until `run_until`) instead of marking each row it claims: `webhook_deliveries.queued_at` goes, and the
 * endpoint index becomes `(subscription_id, next_attempt_at)`. Rows that a process of the earlier layout had
 * in flight are simply due: the first run of this layout sends them (so they go again, with the same
 * `webhook-id`). Stop every instance of an earlier build first: their claims use `queued_at`. The column goes
 * at once (MariaDB drops it instantly), then the index is built online.
 */
export class WebhookEndpointRuns1796000000000 implements MigrationInterface {
  name = 'WebhookEndpointRuns1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Each step may run again, should the migration be stopped half-way.
    await queryRunner.query(
      'ALTER TABLE `webhook_endpoint_states` ADD COLUMN IF NOT EXISTS `run_id` varchar(100) NULL, ' +
        'ADD COLUMN IF NOT EXISTS `run_until` datetime(3) NULL',
    );
    await queryRunner.query(
      'DROP INDEX IF EXISTS `IDX_webhook_deliveries_endpoint_due` ON `webhook_deliveries`',
    );
    await queryRunner.query('ALTER TABLE `webhook_deliveries` DROP COLUMN IF EXISTS `queued_at`');
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS `IDX_webhook_deliveries_endpoint_due` ON `webhook_deliveries` (`subscription_id`, `next_attempt_at`)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `webhook_deliveries` DROP INDEX `IDX_webhook_deliveries_endpoint_due`, ADD `queued_at` datetime(3) NULL, ' +
        'ADD INDEX `IDX_webhook_deliveries_endpoint_due` (`subscription_id`, `queued_at`, `next_attempt_at`)',
    );
    await queryRunner.query(
      'ALTER TABLE `webhook_endpoint_states` DROP COLUMN `run_id`, DROP COLUMN `run_until`',
    );
  }
}
