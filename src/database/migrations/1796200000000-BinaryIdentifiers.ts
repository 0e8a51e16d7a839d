import { MigrationInterface, QueryRunner } from 'typeorm';

/** The identifier columns (see IDENTIFIER), by table: name, type, nullable. */
const IDENTIFIERS: Record<string, [string, string, boolean][]> = {
  places: [
    ['id', 'char(36)', false],
    ['check_in_subscription_id', 'char(36)', true],
  ],
  plans: [['place_id', 'char(36)', false]],
  account_places: [['place_id', 'char(36)', false]],
  visits: [['place_id', 'char(36)', false]],
  check_in_outcome_hours: [['place_id', 'char(36)', false]],
  idempotency_records: [['place_id', 'char(36)', false]],
  member_custom_codes: [['place_id', 'char(36)', false]],
  token_lookup_failures: [['place_id', 'char(36)', false]],
  beneficiaries: [['cpf', 'char(11)', false]],
  member_check_ins: [
    ['id', 'char(36)', false],
    ['place_id', 'char(36)', false],
    ['token', 'char(6)', false],
    ['confirmation_token_hash', 'char(64)', false],
  ],
  webhook_subscriptions: [
    ['id', 'char(36)', false],
    ['place_id', 'char(36)', false],
  ],
  webhook_deliveries: [
    ['id', 'varchar(40)', false],
    ['event_id', 'varchar(40)', false],
    ['subscription_id', 'char(36)', false],
    ['place_id', 'char(36)', false],
    ['status', 'varchar(16)', false],
  ],
  webhook_attempts: [['delivery_id', 'varchar(40)', false]],
  webhook_endpoint_states: [
    ['subscription_id', 'char(36)', false],
    ['run_id', 'varchar(100)', true],
  ],
};

/** The foreign keys on `places.id`, which MariaDB will not let its columns change under. */
const PLACE_KEYS = [
  'ALTER TABLE `plans` ADD CONSTRAINT `FK_9f9f510b8512c215c100a83a4b1` FOREIGN KEY IF NOT EXISTS (`place_id`) ' +
    'REFERENCES `places`(`id`) ON DELETE CASCADE ON UPDATE NO ACTION',
  'ALTER TABLE `account_places` ADD CONSTRAINT `FK_d4b751695adfbcb231d84aea621` FOREIGN KEY IF NOT EXISTS (`place_id`) ' +
    'REFERENCES `places`(`id`) ON DELETE RESTRICT ON UPDATE NO ACTION',
];

/**
 * Identifiers compared byte for byte (`utf8mb4_bin`, see IDENTIFIER) instead of through the Unicode collation
 * algorithm. Each table is rebuilt once, its identifiers together; on a large `visits` or `webhook_deliveries`
 * that takes minutes (docs/deployment.md). Values are unchanged: every identifier is ASCII. Stopped half-way, it
 * runs again from the start: each statement may (the keys dropped and added only where missing).
 */
export class BinaryIdentifiers1796200000000 implements MigrationInterface {
  name = 'BinaryIdentifiers1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.collate(queryRunner, 'utf8mb4_bin');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.collate(queryRunner, 'utf8mb4_unicode_ci');
  }

  private async collate(queryRunner: QueryRunner, collation: string): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `plans` DROP FOREIGN KEY IF EXISTS `FK_9f9f510b8512c215c100a83a4b1`',
    );
    await queryRunner.query(
      'ALTER TABLE `account_places` DROP FOREIGN KEY IF EXISTS `FK_d4b751695adfbcb231d84aea621`',
    );
    for (const [table, columns] of Object.entries(IDENTIFIERS)) {
      const changes = columns.map(
        ([name, type, nullable]) =>
          `MODIFY \`${name}\` ${type} CHARACTER SET utf8mb4 COLLATE ${collation} ${nullable ? 'NULL' : 'NOT NULL'}`,
      );
      await queryRunner.query(`ALTER TABLE \`${table}\` ${changes.join(', ')}`);
    }
    for (const key of PLACE_KEYS) await queryRunner.query(key);
  }
}
