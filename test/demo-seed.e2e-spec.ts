import { KeyVault } from '../src/common/crypto/key-vault';
import { isValidCpf } from '../src/common/domain/cpf';
import { DEMO_PASSWORD, seedDemo } from '../scripts/demo-seed';
import { signIn } from './support/console';
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

    // One console account of each role, each able to sign in with the demo password; the gym one has one place.
    expect(first.accounts.map((account) => account.role)).toEqual(['operator', 'support', 'gym']);
    const [{ accounts }] = await t.dataSource.query('SELECT COUNT(*) AS accounts FROM accounts');
    expect(Number(accounts)).toBe(3);
    for (const account of first.accounts) {
      const session = await signIn(t.http, account, DEMO_PASSWORD);
      expect(session.account).toMatchObject({ email: account.email, role: account.role });
    }
    const gym = await signIn(t.http, first.accounts[2], DEMO_PASSWORD);
    expect(gym.account).toMatchObject({ partner_id: null, place_ids: [first.places[1].id] });
  });
});
