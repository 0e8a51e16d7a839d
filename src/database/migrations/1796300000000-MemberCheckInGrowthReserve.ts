import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `member_check_ins.growth_reserve`: 16 bytes a check-in holds while it is pending and gives up when it ends, so
 * that its end (the status, `validated_at` and `visit_id`, or `cancelled_at` and the reason) does not grow its
 * row: InnoDB then writes the new row where the old one was, where a row grown on a full page made it
 * reorganize the page (docs/performance.md, "Where a confirmation's extra cost is"). Added instantly; the check-ins
 * pending before it hold none, and end as before.
 */
export class MemberCheckInGrowthReserve1796300000000 implements MigrationInterface {
  name = 'MemberCheckInGrowthReserve1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `member_check_ins` ADD COLUMN IF NOT EXISTS `growth_reserve` varbinary(16) NULL, ALGORITHM=INSTANT',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE `member_check_ins` DROP COLUMN `growth_reserve`');
  }
}
