import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795361752958 implements MigrationInterface {
  name = 'InitialSchema1795361752958';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`partners\` (\`id\` int UNSIGNED NOT NULL AUTO_INCREMENT, \`name\` varchar(255) NOT NULL, \`api_key_hash\` char(64) NOT NULL, \`api_key_ciphertext\` varchar(255) NOT NULL, \`key_version\` int UNSIGNED NOT NULL DEFAULT '1', \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), UNIQUE INDEX \`IDX_ccb46280343dc66a36c44a8b7e\` (\`api_key_hash\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`places\` (\`id\` char(36) NOT NULL, \`partner_id\` int UNSIGNED NOT NULL, \`name\` varchar(255) NOT NULL, \`code\` char(8) NOT NULL, \`active\` tinyint NOT NULL DEFAULT 1, \`api_key_hash\` char(64) NOT NULL, \`api_key_ciphertext\` varchar(255) NOT NULL, \`key_version\` int UNSIGNED NOT NULL DEFAULT '1', \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), INDEX \`IDX_places_partner\` (\`partner_id\`), UNIQUE INDEX \`IDX_a6fe963f6700cb1fe4e6800272\` (\`code\`), UNIQUE INDEX \`IDX_391700c8f83329d0e55be937f1\` (\`api_key_hash\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`plans\` (\`id\` int UNSIGNED NOT NULL AUTO_INCREMENT, \`place_id\` char(36) NOT NULL, \`name\` varchar(255) NOT NULL, \`code\` char(8) NOT NULL, \`tier\` int UNSIGNED NOT NULL, \`external_reference\` varchar(255) NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), \`deleted_at\` datetime(3) NULL, INDEX \`IDX_plans_place\` (\`place_id\`), UNIQUE INDEX \`IDX_95f7ef3fc4c31a3545b4d825dd\` (\`code\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`benefit_plans\` (\`id\` int UNSIGNED NOT NULL AUTO_INCREMENT, \`code\` varchar(32) NOT NULL, \`name\` varchar(255) NOT NULL, \`tier\` int UNSIGNED NOT NULL, \`monthly_visit_limit\` int UNSIGNED NULL, \`meal_plan\` tinyint NOT NULL DEFAULT 0, \`appointment\` tinyint NOT NULL DEFAULT 0, \`active\` tinyint NOT NULL DEFAULT 1, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), UNIQUE INDEX \`IDX_bcbc45cbfca86e063375783c4a\` (\`code\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`beneficiaries\` (\`id\` int UNSIGNED NOT NULL AUTO_INCREMENT, \`cpf\` char(11) NOT NULL, \`code\` char(8) NOT NULL, \`name\` varchar(255) NOT NULL, \`email\` varchar(255) NULL, \`phone\` varchar(32) NULL, \`birthday\` date NULL, \`active\` tinyint NOT NULL DEFAULT 1, \`benefit_plan_id\` int UNSIGNED NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), INDEX \`IDX_beneficiaries_benefit_plan\` (\`benefit_plan_id\`), UNIQUE INDEX \`IDX_bbde24129919eee350e4d3ef54\` (\`cpf\`), UNIQUE INDEX \`IDX_9eabc362579e27ccc462f228cb\` (\`code\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`visits\` (\`id\` bigint UNSIGNED NOT NULL AUTO_INCREMENT, \`beneficiary_id\` int UNSIGNED NOT NULL, \`place_id\` char(36) NOT NULL, \`plan_id\` int UNSIGNED NULL, \`created_at\` datetime(3) NOT NULL, INDEX \`IDX_visits_place_created\` (\`place_id\`, \`created_at\`), INDEX \`IDX_visits_beneficiary_created\` (\`beneficiary_id\`, \`created_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`places\` ADD CONSTRAINT \`FK_1b5adadfaae37552d5e80755251\` FOREIGN KEY (\`partner_id\`) REFERENCES \`partners\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`plans\` ADD CONSTRAINT \`FK_9f9f510b8512c215c100a83a4b1\` FOREIGN KEY (\`place_id\`) REFERENCES \`places\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`beneficiaries\` ADD CONSTRAINT \`FK_f4116c38866ab4a831b78496f26\` FOREIGN KEY (\`benefit_plan_id\`) REFERENCES \`benefit_plans\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`visits\` ADD CONSTRAINT \`FK_7bbde31d9d221956e0eafadb563\` FOREIGN KEY (\`beneficiary_id\`) REFERENCES \`beneficiaries\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`visits\` ADD CONSTRAINT \`FK_3e9aa879f752ac9136a9de28dfb\` FOREIGN KEY (\`place_id\`) REFERENCES \`places\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`visits\` ADD CONSTRAINT \`FK_dac12a0e25c86b2a4af0b805edd\` FOREIGN KEY (\`plan_id\`) REFERENCES \`plans\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`visits\` DROP FOREIGN KEY \`FK_dac12a0e25c86b2a4af0b805edd\``);
    await queryRunner.query(`ALTER TABLE \`visits\` DROP FOREIGN KEY \`FK_3e9aa879f752ac9136a9de28dfb\``);
    await queryRunner.query(`ALTER TABLE \`visits\` DROP FOREIGN KEY \`FK_7bbde31d9d221956e0eafadb563\``);
    await queryRunner.query(
      `ALTER TABLE \`beneficiaries\` DROP FOREIGN KEY \`FK_f4116c38866ab4a831b78496f26\``,
    );
    await queryRunner.query(`ALTER TABLE \`plans\` DROP FOREIGN KEY \`FK_9f9f510b8512c215c100a83a4b1\``);
    await queryRunner.query(`ALTER TABLE \`places\` DROP FOREIGN KEY \`FK_1b5adadfaae37552d5e80755251\``);
    await queryRunner.query(`DROP INDEX \`IDX_visits_beneficiary_created\` ON \`visits\``);
    await queryRunner.query(`DROP INDEX \`IDX_visits_place_created\` ON \`visits\``);
    await queryRunner.query(`DROP TABLE \`visits\``);
    await queryRunner.query(`DROP INDEX \`IDX_9eabc362579e27ccc462f228cb\` ON \`beneficiaries\``);
    await queryRunner.query(`DROP INDEX \`IDX_bbde24129919eee350e4d3ef54\` ON \`beneficiaries\``);
    await queryRunner.query(`DROP INDEX \`IDX_beneficiaries_benefit_plan\` ON \`beneficiaries\``);
    await queryRunner.query(`DROP TABLE \`beneficiaries\``);
    await queryRunner.query(`DROP INDEX \`IDX_bcbc45cbfca86e063375783c4a\` ON \`benefit_plans\``);
    await queryRunner.query(`DROP TABLE \`benefit_plans\``);
    await queryRunner.query(`DROP INDEX \`IDX_95f7ef3fc4c31a3545b4d825dd\` ON \`plans\``);
    await queryRunner.query(`DROP INDEX \`IDX_plans_place\` ON \`plans\``);
    await queryRunner.query(`DROP TABLE \`plans\``);
    await queryRunner.query(`DROP INDEX \`IDX_391700c8f83329d0e55be937f1\` ON \`places\``);
    await queryRunner.query(`DROP INDEX \`IDX_a6fe963f6700cb1fe4e6800272\` ON \`places\``);
    await queryRunner.query(`DROP INDEX \`IDX_places_partner\` ON \`places\``);
    await queryRunner.query(`DROP TABLE \`places\``);
    await queryRunner.query(`DROP INDEX \`IDX_ccb46280343dc66a36c44a8b7e\` ON \`partners\``);
    await queryRunner.query(`DROP TABLE \`partners\``);
  }
}
