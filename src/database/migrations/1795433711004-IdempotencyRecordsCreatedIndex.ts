import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyRecordsCreatedIndex1795433711004 implements MigrationInterface {
  name = 'IdempotencyRecordsCreatedIndex1795433711004';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX \`IDX_idempotency_records_created\` ON \`idempotency_records\` (\`created_at\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_idempotency_records_created\` ON \`idempotency_records\``);
  }
}
