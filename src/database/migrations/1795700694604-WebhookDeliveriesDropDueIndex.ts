import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `webhook_deliveries` loses its due index `(queued_at, next_attempt_at, subscription_id)`: every event inserts
 * a delivery row and every delivery moves `queued_at` and `next_attempt_at` twice, so the index cost its upkeep
 * on the hottest path. The queries it served (due endpoints, stale claims, the outbox backlog) read the
 * endpoint index `(subscription_id, queued_at, next_attempt_at)` instead, one look-up per endpoint.
 */
export class WebhookDeliveriesDropDueIndex1795700694604 implements MigrationInterface {
  name = 'WebhookDeliveriesDropDueIndex1795700694604';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX `IDX_webhook_deliveries_due` ON `webhook_deliveries`');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX `IDX_webhook_deliveries_due` ON `webhook_deliveries` (`queued_at`, `next_attempt_at`, `subscription_id`)',
    );
  }
}
