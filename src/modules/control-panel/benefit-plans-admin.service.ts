import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { AuditLog } from '../audit/audit-log';
import { Caller } from '../auth/caller';
import { toBenefitPlanDto } from './control-panel.mappers';
import { BenefitPlanChanges, BeneficiariesRepository } from '../beneficiaries/beneficiaries.repository';
import { BenefitPlanDto, CreateBenefitPlanDto, UpdateBenefitPlanDto } from './dto/benefit-plans.dto';
import { withCode } from './generated-code';
import { Transactions } from '../../database/transactions';

/** Benefit plans: what a beneficiary's employer pays for. */
@Injectable()
export class BenefitPlansAdminService {
  constructor(
    private readonly repository: BeneficiariesRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditLog,
  ) {}

  async createBenefitPlan(caller: Caller, body: CreateBenefitPlanDto): Promise<BenefitPlanDto> {
    const code = body.code.toUpperCase();
    const plan = await this.transactions.run(async (manager) => {
      const repository = this.repository.in(manager);
      const created = await withCode(
        code,
        () =>
          repository.insertBenefitPlan({
            code,
            name: body.name.trim(),
            tier: body.tier,
            monthlyVisitLimit: body.monthly_visit_limit,
            mealPlan: body.meal_plan ?? false,
            appointment: body.appointment ?? false,
          }),
        'controlPanel.benefitPlanExists',
      );
      await this.audit.write(manager, caller.actor, {
        action: 'benefit_plan.create',
        targetType: 'benefit_plan',
        targetId: created.code,
        details: { ...toBenefitPlanDto(created) },
      });
      return created;
    });
    return toBenefitPlanDto(plan);
  }

  async listBenefitPlans(): Promise<BenefitPlanDto[]> {
    return (await this.repository.benefitPlans()).map(toBenefitPlanDto);
  }

  async updateBenefitPlan(caller: Caller, code: string, body: UpdateBenefitPlanDto): Promise<BenefitPlanDto> {
    const plan = await this.repository.findBenefitPlan(code.toUpperCase());
    if (!plan) throw notFound('controlPanel.benefitPlanNotFound', { code });
    const changes: BenefitPlanChanges = {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.tier !== undefined && { tier: body.tier }),
      ...(body.monthly_visit_limit !== undefined && { monthlyVisitLimit: body.monthly_visit_limit }),
      ...(body.meal_plan !== undefined && { mealPlan: body.meal_plan }),
      ...(body.appointment !== undefined && { appointment: body.appointment }),
      ...(body.active !== undefined && { active: body.active }),
    };
    const updated = await this.transactions.run(async (manager) => {
      const repository = this.repository.in(manager);
      const stored = await repository.updateBenefitPlan(plan.id, changes);
      await this.audit.write(manager, caller.actor, {
        action: 'benefit_plan.update',
        targetType: 'benefit_plan',
        targetId: plan.code,
        details: { ...body },
      });
      return stored;
    });
    return toBenefitPlanDto(updated);
  }
}
