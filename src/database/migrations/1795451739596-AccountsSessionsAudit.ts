import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Console accounts (roles, scope of a gym account), their server-side sessions, one-time password links, failed
 * sign-ins for the sign-in limits, and the audit log.
 */
export class AccountsSessionsAudit1795451739596 implements MigrationInterface {
  name = 'AccountsSessionsAudit1795451739596';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`audit_entries\` (\`id\` bigint UNSIGNED NOT NULL AUTO_INCREMENT, \`at\` datetime(3) NOT NULL, \`actor_type\` varchar(16) NOT NULL, \`actor_id\` varchar(64) NULL, \`actor_label\` varchar(255) NOT NULL, \`action\` varchar(64) NOT NULL, \`target_type\` varchar(32) NULL, \`target_id\` varchar(64) NULL, \`address\` varchar(45) NULL, \`request_id\` varchar(64) NULL, \`details\` text NULL, INDEX \`IDX_audit_entries_target\` (\`target_type\`, \`target_id\`, \`at\`), INDEX \`IDX_audit_entries_action\` (\`action\`, \`at\`), INDEX \`IDX_audit_entries_actor\` (\`actor_type\`, \`actor_id\`, \`at\`), INDEX \`IDX_audit_entries_at\` (\`at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`accounts\` (\`id\` int UNSIGNED NOT NULL AUTO_INCREMENT, \`email\` varchar(255) NOT NULL, \`name\` varchar(255) NOT NULL, \`role\` varchar(16) NOT NULL, \`partner_id\` int UNSIGNED NULL, \`password_hash\` varchar(255) NULL, \`active\` tinyint NOT NULL DEFAULT 1, \`last_login_at\` datetime(3) NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), UNIQUE INDEX \`UQ_accounts_email\` (\`email\`), INDEX \`IDX_accounts_partner\` (\`partner_id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`sessions\` (\`token_hash\` char(64) NOT NULL, \`account_id\` int UNSIGNED NOT NULL, \`csrf_token\` varchar(64) NOT NULL, \`created_at\` datetime(3) NOT NULL, \`last_seen_at\` datetime(3) NOT NULL, \`expires_at\` datetime(3) NOT NULL, \`address\` varchar(45) NULL, \`user_agent\` varchar(255) NULL, INDEX \`IDX_sessions_account\` (\`account_id\`), INDEX \`IDX_sessions_expires\` (\`expires_at\`), PRIMARY KEY (\`token_hash\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`password_links\` (\`token_hash\` char(64) NOT NULL, \`account_id\` int UNSIGNED NOT NULL, \`purpose\` varchar(16) NOT NULL, \`created_at\` datetime(3) NOT NULL, \`expires_at\` datetime(3) NOT NULL, \`used_at\` datetime(3) NULL, INDEX \`IDX_password_links_account\` (\`account_id\`), PRIMARY KEY (\`token_hash\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`login_failures\` (\`id\` bigint UNSIGNED NOT NULL AUTO_INCREMENT, \`subject\` varchar(300) NOT NULL, \`created_at\` datetime(3) NOT NULL, INDEX \`IDX_login_failures_created\` (\`created_at\`), INDEX \`IDX_login_failures_subject_created\` (\`subject\`, \`created_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`account_places\` (\`account_id\` int UNSIGNED NOT NULL, \`place_id\` char(36) NOT NULL, INDEX \`IDX_account_places_place\` (\`place_id\`), PRIMARY KEY (\`account_id\`, \`place_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`accounts\` ADD CONSTRAINT \`FK_4a38737c526f2d37e3dc2697a77\` FOREIGN KEY (\`partner_id\`) REFERENCES \`partners\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`sessions\` ADD CONSTRAINT \`FK_da0cf19646ff5c6e3c0284468e5\` FOREIGN KEY (\`account_id\`) REFERENCES \`accounts\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`password_links\` ADD CONSTRAINT \`FK_9aa7e116a9dd3faa00569aaded3\` FOREIGN KEY (\`account_id\`) REFERENCES \`accounts\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`account_places\` ADD CONSTRAINT \`FK_72cf58efbad85104d2cef9ae216\` FOREIGN KEY (\`account_id\`) REFERENCES \`accounts\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`account_places\` ADD CONSTRAINT \`FK_d4b751695adfbcb231d84aea621\` FOREIGN KEY (\`place_id\`) REFERENCES \`places\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`account_places\` DROP FOREIGN KEY \`FK_d4b751695adfbcb231d84aea621\``,
    );
    await queryRunner.query(
      `ALTER TABLE \`account_places\` DROP FOREIGN KEY \`FK_72cf58efbad85104d2cef9ae216\``,
    );
    await queryRunner.query(
      `ALTER TABLE \`password_links\` DROP FOREIGN KEY \`FK_9aa7e116a9dd3faa00569aaded3\``,
    );
    await queryRunner.query(`ALTER TABLE \`sessions\` DROP FOREIGN KEY \`FK_da0cf19646ff5c6e3c0284468e5\``);
    await queryRunner.query(`ALTER TABLE \`accounts\` DROP FOREIGN KEY \`FK_4a38737c526f2d37e3dc2697a77\``);
    await queryRunner.query(`DROP INDEX \`IDX_account_places_place\` ON \`account_places\``);
    await queryRunner.query(`DROP TABLE \`account_places\``);
    await queryRunner.query(`DROP INDEX \`IDX_login_failures_subject_created\` ON \`login_failures\``);
    await queryRunner.query(`DROP INDEX \`IDX_login_failures_created\` ON \`login_failures\``);
    await queryRunner.query(`DROP TABLE \`login_failures\``);
    await queryRunner.query(`DROP INDEX \`IDX_password_links_account\` ON \`password_links\``);
    await queryRunner.query(`DROP TABLE \`password_links\``);
    await queryRunner.query(`DROP INDEX \`IDX_sessions_expires\` ON \`sessions\``);
    await queryRunner.query(`DROP INDEX \`IDX_sessions_account\` ON \`sessions\``);
    await queryRunner.query(`DROP TABLE \`sessions\``);
    await queryRunner.query(`DROP INDEX \`IDX_accounts_partner\` ON \`accounts\``);
    await queryRunner.query(`DROP INDEX \`UQ_accounts_email\` ON \`accounts\``);
    await queryRunner.query(`DROP TABLE \`accounts\``);
    await queryRunner.query(`DROP INDEX \`IDX_audit_entries_at\` ON \`audit_entries\``);
    await queryRunner.query(`DROP INDEX \`IDX_audit_entries_actor\` ON \`audit_entries\``);
    await queryRunner.query(`DROP INDEX \`IDX_audit_entries_action\` ON \`audit_entries\``);
    await queryRunner.query(`DROP INDEX \`IDX_audit_entries_target\` ON \`audit_entries\``);
    await queryRunner.query(`DROP TABLE \`audit_entries\``);
  }
}
