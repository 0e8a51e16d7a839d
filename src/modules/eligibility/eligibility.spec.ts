import { DomainError } from '../../common/errors/domain-error';
import { BeneficiaryFacts, checkBeneficiary, checkGym, GymFacts } from './eligibility';
import { TrackUsageRequest } from './track-usage-request';

const request: TrackUsageRequest = { type: 'cpf', identifier: '11144477735' };
const gym: GymFacts = {
  placeId: 'p1',
  placeCode: 'GYM00001',
  active: true,
  plans: [{ id: 1, code: 'PLAN0001', tier: 2 }],
};
const beneficiary: BeneficiaryFacts = {
  id: 1,
  code: 'EQ2B3FBK',
  memberNumber: '1836547291045',
  active: true,
  benefitPlanId: 1,
  benefitPlanActive: true,
  benefitPlanTier: 2,
  monthlyVisitLimit: 8,
  visitsThisMonth: 0,
  recentVisitPlaceId: null,
  recentVisitAt: null,
};
const context = {
  now: new Date('2026-11-22T10:00:00Z'),
  recentWindowSeconds: 5400,
  timeZone: 'America/Sao_Paulo',
};

function labelOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error.label;
    throw error;
  }
  return 'eligible';
}

describe('checkGym', () => {
  it('uses the only plan of a one-plan gym', () => {
    expect(checkGym(request, gym)).toEqual(gym.plans[0]);
  });

  it('answers no plan for a gym without plans, and refuses a plan code there', () => {
    expect(checkGym(request, { ...gym, plans: [] })).toBeNull();
    expect(labelOf(() => checkGym({ ...request, servicePlanCode: 'PLAN0001' }, { ...gym, plans: [] }))).toBe(
      'invalid_plan',
    );
  });

  it('accepts the gym code of the key and the code of its only plan', () => {
    expect(
      checkGym({ ...request, serviceProviderCode: 'GYM00001', servicePlanCode: 'PLAN0001' }, gym),
    ).toEqual(gym.plans[0]);
  });

  it('checks the gym code, then the gym state, then the plan', () => {
    const twoPlans = { ...gym, active: false, plans: [...gym.plans, { id: 2, code: 'PLAN0002', tier: 1 }] };
    expect(labelOf(() => checkGym({ ...request, serviceProviderCode: 'OTHER123' }, twoPlans))).toBe(
      'invalid_gym',
    );
    expect(labelOf(() => checkGym(request, twoPlans))).toBe('gym_inactive');
    expect(labelOf(() => checkGym(request, { ...twoPlans, active: true }))).toBe(
      'gym_with_more_than_one_plan',
    );
    expect(
      labelOf(() => checkGym({ ...request, servicePlanCode: 'NOPE0000' }, { ...twoPlans, active: true })),
    ).toBe('invalid_plan');
    expect(checkGym({ ...request, servicePlanCode: 'PLAN0002' }, { ...twoPlans, active: true })?.id).toBe(2);
  });
});

describe('checkBeneficiary', () => {
  const check = (facts: Partial<BeneficiaryFacts> | undefined, plan = gym.plans[0]) =>
    labelOf(() => checkBeneficiary(request, gym, plan, facts && { ...beneficiary, ...facts }, context));

  it('lets an eligible beneficiary in', () => {
    expect(check({})).toBe('eligible');
  });

  it.each([
    ['no beneficiary', undefined, 'not_exists'],
    ['no benefit plan', { benefitPlanId: null, benefitPlanActive: null }, 'not_exists'],
    ['an inactive benefit plan', { benefitPlanActive: false }, 'not_exists'],
    ['an inactive beneficiary', { active: false }, 'inactive_employee'],
    ['a lower tier', { benefitPlanTier: 1 }, 'plan_not_allowed'],
    [
      'a recent visit here',
      { recentVisitAt: new Date('2026-11-22T09:30:00Z'), recentVisitPlaceId: 'p1' },
      'already_used',
    ],
    [
      'a recent visit elsewhere',
      { recentVisitAt: new Date('2026-11-22T09:30:00Z'), recentVisitPlaceId: 'p2' },
      'already_used_other_gym',
    ],
    ['the monthly limit spent', { visitsThisMonth: 8 }, 'usage_limit_reached'],
  ])('refuses %s', (_name, facts, label) => {
    expect(check(facts)).toBe(label);
  });

  it('puts an inactive beneficiary before a tier mismatch and a tier mismatch before a recent visit', () => {
    expect(check({ active: false, benefitPlanTier: 0 })).toBe('inactive_employee');
    expect(check({ benefitPlanTier: 1, recentVisitAt: new Date(), recentVisitPlaceId: 'p1' })).toBe(
      'plan_not_allowed',
    );
    expect(check({ visitsThisMonth: 99, recentVisitAt: new Date(), recentVisitPlaceId: 'p2' })).toBe(
      'already_used_other_gym',
    );
  });

  it('treats a null limit as unlimited', () => {
    expect(check({ monthlyVisitLimit: null, visitsThisMonth: 10_000 })).toBe('eligible');
  });

  it('says when the beneficiary can come back, in the business time zone', () => {
    try {
      checkBeneficiary(
        request,
        gym,
        gym.plans[0],
        { ...beneficiary, recentVisitAt: new Date('2026-11-22T10:02:00Z'), recentVisitPlaceId: 'p1' },
        context,
      );
    } catch (error) {
      expect((error as DomainError).message).toBe(
        'A check-in at this gym was recorded at 07:02; try again after 08:32.',
      );
      return;
    }
    throw new Error('expected already_used');
  });
});
