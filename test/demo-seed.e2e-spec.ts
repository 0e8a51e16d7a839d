import { KeyVault } from '../src/common/crypto/key-vault';
import { isValidCpf } from '../src/common/domain/cpf';
import { seedDemo } from '../src/scripts/demo-seed';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

describe('demo seed (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await truncateAll(t.dataSource);
  });
  afterAll(() => t.close());

  it('seeds a demo chain and changes nothing when run again', async () => {
    const vault = t.app.get(KeyVault);
    const first = await seedDemo(t.dataSource, vault);
    const second = await seedDemo(t.dataSource, vault);
    expect(second).toEqual(first);

    expect(first.places).toHaveLength(2);
    expect(first.places.map((p) => p.plans.length).sort()).toEqual([1, 2]);
    expect(first.beneficiaries.length).toBeGreaterThanOrEqual(24);
    expect(first.beneficiaries.filter((b) => !b.active)).toHaveLength(1);
    expect(first.beneficiaries.every((b) => isValidCpf(b.cpf))).toBe(true);

    const [counts] = await t.dataSource.query(
      `SELECT (SELECT COUNT(*) FROM partners) AS partners, (SELECT COUNT(*) FROM places) AS places,
              (SELECT COUNT(*) FROM plans) AS plans, (SELECT COUNT(*) FROM benefit_plans) AS benefitPlans,
              (SELECT COUNT(DISTINCT monthly_visit_limit IS NULL, tier) FROM benefit_plans) AS kinds,
              (SELECT COUNT(*) FROM beneficiaries) AS beneficiaries`,
    );
    expect(counts).toMatchObject({ partners: '1', places: '2', plans: '3', benefitPlans: '3', kinds: '3' });
    expect(Number(counts.beneficiaries)).toBe(first.beneficiaries.length);

    // Check-ins read the places' summary of their plans: it must hold the seeded plans.
    for (const place of first.places) {
      const [{ plans }] = await t.dataSource.query(
        'SELECT check_in_plans AS plans FROM places WHERE id = ?',
        [place.id],
      );
      const codes = (JSON.parse(plans) as { code: string }[]).map((plan) => plan.code).sort();
      expect(codes).toEqual(place.plans.map((plan) => plan.code).sort());
    }
  });
});
