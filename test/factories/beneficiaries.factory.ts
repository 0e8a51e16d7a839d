import { DataSource } from 'typeorm';
import { cpfFromBase } from '../../src/common/domain/cpf';
import { generateCode } from '../../src/common/domain/codes';
import { BeneficiaryEntity } from '../../src/modules/beneficiaries/entities/beneficiary.entity';
import { BenefitPlanEntity } from '../../src/modules/beneficiaries/entities/benefit-plan.entity';

let sequence = 0;

/** A fresh valid CPF, different on every call within the process. */
export function nextCpf(): string {
  sequence += 1;
  return cpfFromBase(200000000 + ((process.pid * 1000 + sequence) % 700000000));
}

export async function createBenefitPlan(
  dataSource: DataSource,
  overrides: Partial<BenefitPlanEntity> = {},
): Promise<BenefitPlanEntity> {
  return dataSource.getRepository(BenefitPlanEntity).save({
    code: `BP${generateCode()}`,
    name: 'Gold',
    tier: 3,
    monthlyVisitLimit: null,
    mealPlan: true,
    appointment: false,
    active: true,
    ...overrides,
  });
}

export async function createBeneficiary(
  dataSource: DataSource,
  benefitPlan: BenefitPlanEntity | null,
  overrides: Partial<BeneficiaryEntity> = {},
): Promise<BeneficiaryEntity> {
  return dataSource.getRepository(BeneficiaryEntity).save({
    cpf: nextCpf(),
    code: generateCode(),
    name: 'Maria Silva',
    email: 'maria@example.com',
    phone: '+5511999990000',
    birthday: '1990-04-12',
    active: true,
    benefitPlanId: benefitPlan?.id ?? null,
    ...overrides,
  });
}
