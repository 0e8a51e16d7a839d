/**
 * How long the WellhubIdentities migration takes on a national-scale beneficiaries table: every migration
 * before it runs on a scratch database, BENEFICIARIES rows (default 10,000,000, bench:scale's size) are
 * generated in it (CPF, code and name as bench:scale writes them, one benefit plan), then the migration runs
 * alone and its time is printed, with the check that every row got a distinct 13-digit number. Run with
 * `npx ts-node -T scripts/member-number-backfill-cost.ts` (BENEFICIARIES to change the
 * size). The scratch database is dropped at the end.
 */
import { withScratchDatabase } from './scratch-database';

const BENEFICIARIES = Number(process.env.BENEFICIARIES ?? 10_000_000);
const CHUNK = 1_000_000;
const MIGRATION = 'WellhubIdentities1795700000000';

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

async function main(): Promise<void> {
  await withScratchDatabase('gym_backfill', async (source) => {
    await source.runMigrations();
    // Back to the schema just before the migration measured (and whatever came after it, undone first).
    for (;;) {
      const [last]: { name: string }[] = await source.query(
        'SELECT name FROM migrations ORDER BY id DESC LIMIT 1',
      );
      await source.undoLastMigration();
      if (last.name === MIGRATION) break;
    }
    await source.query(
      "INSERT INTO benefit_plans (id, code, name, tier, monthly_visit_limit, active) VALUES (1, 'BACKFILL', 'Backfill', 1, NULL, 1)",
    );
    const loading = Date.now();
    // The code index is built once at the end, not row by row in random order.
    await source.query('ALTER TABLE beneficiaries DROP INDEX `IDX_9eabc362579e27ccc462f228cb`');
    for (let from = 0; from < BENEFICIARIES; from += CHUNK) {
      const to = Math.min(BENEFICIARIES, from + CHUNK);
      await source.query(
        `INSERT INTO beneficiaries (id, cpf, code, name, active, benefit_plan_id)
         SELECT seq, LPAD(seq, 11, '0'), LPAD(UPPER(CONV(MOD(seq * 1000003, POW(36, 8)), 10, 36)), 8, '0'),
                CONCAT('B', seq), 1, 1
         FROM seq_${from + 1}_to_${to}`,
      );
    }
    await source.query(
      'ALTER TABLE beneficiaries ADD UNIQUE INDEX `IDX_9eabc362579e27ccc462f228cb` (`code`)',
    );
    console.log(`generated ${BENEFICIARIES} beneficiaries in ${seconds(loading)} s`);

    const migrating = Date.now();
    const ran = await source.runMigrations();
    const took = seconds(migrating);
    const [check]: { n: string; distinct: string; bad: string }[] = await source.query(
      `SELECT COUNT(*) AS n, COUNT(DISTINCT member_number) AS \`distinct\`,
              SUM(member_number NOT BETWEEN 1000000000000 AND 9999999999999) AS bad FROM beneficiaries`,
    );
    console.log(
      `migrations ${ran.map((m) => m.name).join(', ')}: ${took} s for ${check.n} beneficiaries ` +
        `(${check.distinct} distinct member numbers, ${check.bad} outside 13 digits)`,
    );
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
