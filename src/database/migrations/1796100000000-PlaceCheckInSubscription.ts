import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The place's active CHECKIN subscription, its id and URL, kept on the place's row beside `check_in_webhook`
 * (PlaceSummaryRepository writes all three in the transaction of every change to the place's subscriptions):
 * the facts read of a check-in at a subscribed gym takes them from the row it reads anyway, instead of joining
 * `webhook_subscriptions` at every register (docs/performance.md). Added instantly; every start of the service
 * rewrites the summaries, and the UPDATE here fills them for a build that reads them before that.
 */
export class PlaceCheckInSubscription1796100000000 implements MigrationInterface {
  name = 'PlaceCheckInSubscription1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `places` ADD COLUMN IF NOT EXISTS `check_in_subscription_id` char(36) NULL, ' +
        'ADD COLUMN IF NOT EXISTS `check_in_webhook_url` varchar(2048) NULL, ALGORITHM=INSTANT',
    );
    await queryRunner.query(
      "UPDATE `places` p JOIN `webhook_subscriptions` s ON s.place_id = p.id AND s.type = 'CHECKIN' AND s.active = 1 " +
        'SET p.check_in_subscription_id = s.id, p.check_in_webhook_url = s.url',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `places` DROP COLUMN `check_in_webhook_url`, DROP COLUMN `check_in_subscription_id`',
    );
  }
}
