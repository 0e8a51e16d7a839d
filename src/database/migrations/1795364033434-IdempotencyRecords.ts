import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyRecords1795364033434 implements MigrationInterface {
  name = 'IdempotencyRecords1795364033434';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`idempotency_records\` (\`id\` bigint UNSIGNED NOT NULL AUTO_INCREMENT, \`place_id\` char(36) NOT NULL, \`idempotency_key\` varchar(255) NOT NULL, \`request_hash\` char(64) NOT NULL, \`status_code\` smallint UNSIGNED NOT NULL, \`error_label\` varchar(64) NULL, \`error_detail\` varchar(1000) NULL, \`created_at\` datetime(3) NOT NULL, UNIQUE INDEX \`UQ_idempotency_records_place_key\` (\`place_id\`, \`idempotency_key\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`UQ_idempotency_records_place_key\` ON \`idempotency_records\``);
    await queryRunner.query(`DROP TABLE \`idempotency_records\``);
  }
}
