import { isValidCpf } from '../../common/domain/cpf';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { formatInZone } from '../../common/time/business-time';
import { TrackUsageRequest } from './track-usage-request';

/** The labels of rules 2 to 4 (the gym and its plan) and 5 to 9 (the beneficiary), in the contract's order. */
export const GYM_RULE_LABELS = [
  'invalid_gym',
  'gym_inactive',
  'gym_with_more_than_one_plan',
  'invalid_plan',
] as const;
export const BENEFICIARY_RULE_LABELS = [
  'not_exists',
  'inactive_employee',
  'plan_not_allowed',
  'already_used',
  'already_used_other_gym',
  'usage_limit_reached',
] as const;
/** What a member check-in that is no longer confirmable answers. */
export const CHECK_IN_STATE_LABELS = ['check_in_not_available', 'check_in_expired_alert'] as const;

export interface GymPlan {
  id: number;
  code: string;
  tier: number;
}

/** The gym as the rules see it: read fresh on every check-in. */
export interface GymFacts {
  placeId: string;
  placeCode: string;
  active: boolean;
  plans: GymPlan[];
}

/** The beneficiary with its benefit plan and its visits that matter now. */
export interface BeneficiaryFacts {
  id: number;
  code: string;
  memberNumber: string;
  active: boolean;
  benefitPlanId: number | null;
  benefitPlanActive: boolean | null;
  benefitPlanTier: number | null;
  monthlyVisitLimit: number | null;
  visitsThisMonth: number;
  recentVisitPlaceId: string | null;
  recentVisitAt: Date | null;
}

export interface EvaluationContext {
  now: Date;
  recentWindowSeconds: number;
  timeZone: string;
}

function hourMinute(date: Date, timeZone: string): string {
  return formatInZone(date, timeZone).slice(11, 16);
}

/** Rules 2 and 3: the gym of the key, and active. */
export function checkGymStanding(
  request: Pick<TrackUsageRequest, 'serviceProviderCode'>,
  gym: GymFacts,
): void {
  if (request.serviceProviderCode !== undefined && request.serviceProviderCode !== gym.placeCode) {
    throw new DomainError(
      'invalid_gym',
      message('checkIn.invalidGym', { given: request.serviceProviderCode, expected: gym.placeCode }),
    );
  }
  if (!gym.active) throw new DomainError('gym_inactive');
}

/**
 * Rules 2 to 4: the gym of the key, active, and the plan the visit is for. A gym without active plans gives
 * null: no tier restriction, since there is no plan to compare with.
 */
export function checkGym(
  request: Pick<TrackUsageRequest, 'serviceProviderCode' | 'servicePlanCode'>,
  gym: GymFacts,
): GymPlan | null {
  checkGymStanding(request, gym);
  if (request.servicePlanCode !== undefined) {
    const plan = gym.plans.find((candidate) => candidate.code === request.servicePlanCode);
    if (!plan) {
      throw new DomainError(
        'invalid_plan',
        message('checkIn.invalidPlan', { plan: request.servicePlanCode }),
      );
    }
    return plan;
  }
  if (gym.plans.length > 1) {
    throw new DomainError(
      'gym_with_more_than_one_plan',
      message('checkIn.moreThanOnePlan', {
        plans: gym.plans.length,
        codes: gym.plans.map((plan) => plan.code).join(', '),
      }),
    );
  }
  return gym.plans[0] ?? null;
}

/** True when the identifier cannot belong to anyone (a CPF with wrong check digits). */
export function cannotExist(request: Pick<TrackUsageRequest, 'type' | 'identifier'>): boolean {
  return request.type === 'cpf' && !isValidCpf(request.identifier);
}

export function notExists(request: Pick<TrackUsageRequest, 'type'>): DomainError {
  switch (request.type) {
    case 'cpf':
      return new DomainError('not_exists', 'checkIn.notExistsCpf');
    case 'code':
      return new DomainError('not_exists', 'checkIn.notExistsCode');
    case 'member_number':
      return new DomainError('not_exists', 'checkIn.notExistsMemberNumber');
    case 'token':
      // The check-in was found; its beneficiary has lost the benefit plan since.
      return new DomainError('not_exists', 'memberCheckIn.beneficiaryGone');
  }
}

/** What rules 5 and 6 look at; `benefitPlanActive` is null when the beneficiary has no benefit plan. */
export interface Standing {
  active: boolean;
  benefitPlanActive: boolean | null;
}

/**
 * Rule 8's answer for a visit at `visitAt`, within the recent window: `already_used` at this gym,
 * `already_used_other_gym` elsewhere, naming when it was and when the member may check in again.
 */
export function recentVisitRefusal(
  visitAt: Date,
  atThisGym: boolean,
  context: Pick<EvaluationContext, 'recentWindowSeconds' | 'timeZone'>,
): DomainError {
  const at = hourMinute(visitAt, context.timeZone);
  const retry = hourMinute(
    new Date(visitAt.getTime() + context.recentWindowSeconds * 1000),
    context.timeZone,
  );
  return atThisGym
    ? new DomainError('already_used', message('checkIn.alreadyUsed', { at, retry }))
    : new DomainError('already_used_other_gym', message('checkIn.alreadyUsedOtherGym', { at, retry }));
}

/** Rules 5 and 6: the beneficiary exists with an active benefit plan, and is active. */
export function checkBeneficiaryStanding<T extends Standing>(
  request: Pick<TrackUsageRequest, 'type'>,
  beneficiary: T | undefined,
): asserts beneficiary is T {
  if (!beneficiary || !beneficiary.benefitPlanActive) throw notExists(request);
  if (!beneficiary.active) throw new DomainError('inactive_employee');
}

/** Rules 5 to 9, in order; the first that fails is the answer. */
export function checkBeneficiary(
  request: TrackUsageRequest,
  gym: GymFacts,
  plan: GymPlan | null,
  beneficiary: BeneficiaryFacts | undefined,
  context: EvaluationContext,
): asserts beneficiary is BeneficiaryFacts {
  checkBeneficiaryStanding(request, beneficiary);
  const grantedTier = beneficiary.benefitPlanTier ?? 0;
  if (plan && plan.tier > grantedTier) {
    throw new DomainError(
      'plan_not_allowed',
      message('checkIn.planNotAllowed', { granted: grantedTier, plan: plan.code, tier: plan.tier }),
    );
  }
  if (beneficiary.recentVisitAt && context.recentWindowSeconds > 0) {
    throw recentVisitRefusal(
      beneficiary.recentVisitAt,
      beneficiary.recentVisitPlaceId === gym.placeId,
      context,
    );
  }
  const limit = beneficiary.monthlyVisitLimit;
  if (limit !== null && beneficiary.visitsThisMonth >= limit) {
    throw new DomainError(
      'usage_limit_reached',
      message('checkIn.usageLimitReached', { limit, visits: beneficiary.visitsThisMonth }),
    );
  }
}
