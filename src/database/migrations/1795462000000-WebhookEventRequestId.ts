import { MigrationInterface, QueryRunner } from 'typeorm';

/** The id of the request that caused an event, so that every attempt to deliver it can be traced back to it. */
export class WebhookEventRequestId1795462000000 implements MigrationInterface {
  name = 'WebhookEventRequestId1795462000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `webhook_events` ADD `request_id` varchar(64) NULL');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `webhook_events` DROP COLUMN `request_id`');
  }
}
