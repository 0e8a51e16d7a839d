import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/domain-error';
import { toBenefitPlanDto } from './control-panel.mappers';
import { BenefitPlanChanges, ControlPanelRepository } from './control-panel.repository';
import { BenefitPlanDto, CreateBenefitPlanDto, UpdateBenefitPlanDto } from './dto/benefit-plans.dto';
import { withCode } from './generated-code';

/** Benefit plans: what a beneficiary's employer pays for. */
@Injectable()
export class BenefitPlansAdminService {
  constructor(private readonly repository: ControlPanelRepository) {}

  async createBenefitPlan(body: CreateBenefitPlanDto): Promise<BenefitPlanDto> {
    const code = body.code.toUpperCase();
    const plan = await withCode(
      code,
      () =>
        this.repository.insertBenefitPlan({
          code,
          name: body.name.trim(),
          tier: body.tier,
          monthlyVisitLimit: body.monthly_visit_limit,
          mealPlan: body.meal_plan ?? false,
          appointment: body.appointment ?? false,
        }),
      'controlPanel.benefitPlanExists',
    );
    return toBenefitPlanDto(plan);
  }

  async listBenefitPlans(): Promise<BenefitPlanDto[]> {
    return (await this.repository.benefitPlans()).map(toBenefitPlanDto);
  }

  async updateBenefitPlan(code: string, body: UpdateBenefitPlanDto): Promise<BenefitPlanDto> {
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
    return toBenefitPlanDto(await this.repository.updateBenefitPlan(plan.id, changes));
  }
}
