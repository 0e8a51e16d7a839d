import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's deliveries are sent by one run at a time, which holds the endpoint in its state row (`run_id`,
 * until `run_until`) instead of marking each row it claims: `webhook_deliveries.queued_at` goes, and the
 * endpoint index becomes `(subscription_id, next_attempt_at)`. Rows that a process of the earlier layout had
 * in flight are simply due: the first run of this layout sends them.
 */
export class WebhookEndpointRuns1796000000000 implements MigrationInterface {
  name = 'WebhookEndpointRuns1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `webhook_endpoint_states` ADD `run_id` varchar(100) NULL, ADD `run_until` datetime(3) NULL',
    );
    await queryRunner.query(
      'ALTER TABLE `webhook_deliveries` DROP INDEX `IDX_webhook_deliveries_endpoint_due`, DROP COLUMN `queued_at`, ' +
        'ADD INDEX `IDX_webhook_deliveries_endpoint_due` (`subscription_id`, `next_attempt_at`)',
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
