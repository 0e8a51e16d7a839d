import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { generateCode } from '../../common/domain/codes';
import { isValidCpf, normalizeCpf } from '../../common/domain/cpf';
import { invalidParameter, notFound } from '../../common/errors/domain-error';
import { BenefitPlanEntity } from '../beneficiaries/entities/benefit-plan.entity';
import { BeneficiaryRow, MAX_BULK_ROWS, RowError, validateRows } from './bulk-rows';
import {
  BeneficiaryWithPlan,
  ControlPanelRepository,
  refusingDuplicates,
  StoredBeneficiaryRow,
} from './control-panel.repository';
import {
  BeneficiaryDto,
  BenefitPlanDto,
  BulkImportDto,
  BulkImportResultDto,
  CreateBeneficiaryDto,
  CreateBenefitPlanDto,
  UpdateBeneficiaryDto,
  UpdateBenefitPlanDto,
} from './dto/beneficiaries.dto';
import { withCode } from './partners-admin.service';

const BULK_CHUNK = 1000;

function benefitPlanDto(plan: BenefitPlanEntity): BenefitPlanDto {
  return {
    code: plan.code,
    name: plan.name,
    tier: plan.tier,
    monthly_visit_limit: plan.monthlyVisitLimit,
    meal_plan: plan.mealPlan,
    appointment: plan.appointment,
    active: plan.active,
  };
}

function beneficiaryDto(beneficiary: BeneficiaryWithPlan): BeneficiaryDto {
  return {
    cpf: beneficiary.cpf,
    code: beneficiary.code,
    name: beneficiary.name,
    email: beneficiary.email,
    phone: beneficiary.phone,
    birthday: beneficiary.birthday,
    active: beneficiary.active,
    benefit_plan_code: beneficiary.benefitPlanCode,
  };
}

function validCpf(raw: string): string {
  const cpf = normalizeCpf(raw);
  if (!isValidCpf(cpf)) throw invalidParameter('cpf must be 11 digits with valid check digits');
  return cpf;
}

/** Benefit plans, beneficiaries and the bulk import. */
@Injectable()
export class BeneficiariesAdminService {
  constructor(private readonly repository: ControlPanelRepository) {}

  async createBenefitPlan(body: CreateBenefitPlanDto): Promise<BenefitPlanDto> {
    if (body.monthly_visit_limit === undefined) {
      throw invalidParameter('monthly_visit_limit is required (a number, or null for unlimited)');
    }
    const plan = await refusingDuplicates(
      () =>
        this.repository.benefitPlans.save(
          this.repository.benefitPlans.create({
            code: body.code.toUpperCase(),
            name: body.name.trim(),
            tier: body.tier,
            monthlyVisitLimit: body.monthly_visit_limit,
            mealPlan: body.meal_plan ?? false,
            appointment: body.appointment ?? false,
          }),
        ),
      `benefit plan ${body.code.toUpperCase()} already exists`,
    );
    return benefitPlanDto(plan);
  }

  async listBenefitPlans(): Promise<BenefitPlanDto[]> {
    return (await this.repository.benefitPlans.find({ order: { code: 'ASC' } })).map(benefitPlanDto);
  }

  async updateBenefitPlan(code: string, body: UpdateBenefitPlanDto): Promise<BenefitPlanDto> {
    const plan = await this.repository.benefitPlans.findOne({ where: { code: code.toUpperCase() } });
    if (!plan) throw notFound(`No benefit plan ${code}.`);
    if (body.name !== undefined) plan.name = body.name.trim();
    if (body.tier !== undefined) plan.tier = body.tier;
    if (body.monthly_visit_limit !== undefined) plan.monthlyVisitLimit = body.monthly_visit_limit;
    if (body.meal_plan !== undefined) plan.mealPlan = body.meal_plan;
    if (body.appointment !== undefined) plan.appointment = body.appointment;
    if (body.active !== undefined) plan.active = body.active;
    return benefitPlanDto(await this.repository.benefitPlans.save(plan));
  }

  async createBeneficiary(body: CreateBeneficiaryDto): Promise<BeneficiaryDto> {
    const cpf = validCpf(body.cpf);
    const plan = await this.benefitPlan(body.benefit_plan_code);
    if (await this.repository.beneficiaries.exist({ where: { cpf } })) {
      throw invalidParameter('cpf already belongs to a beneficiary; use PATCH /admin/beneficiaries/:cpf');
    }
    const saved = await withCode(
      body.code,
      (code) =>
        this.repository.beneficiaries.save(
          this.repository.beneficiaries.create({
            cpf,
            code,
            name: body.name.trim(),
            email: body.email ?? null,
            phone: body.phone ?? null,
            birthday: body.birthday ?? null,
            active: body.active ?? true,
            benefitPlanId: plan.id,
          }),
        ),
      ' by another beneficiary',
    );
    return beneficiaryDto(Object.assign(saved, { benefitPlanCode: plan.code }));
  }

  async getBeneficiary(rawCpf: string): Promise<BeneficiaryDto> {
    return beneficiaryDto(await this.findBeneficiary(rawCpf));
  }

  async updateBeneficiary(rawCpf: string, body: UpdateBeneficiaryDto): Promise<BeneficiaryDto> {
    const beneficiary = await this.findBeneficiary(rawCpf);
    if (body.name !== undefined) beneficiary.name = body.name.trim();
    if (body.email !== undefined) beneficiary.email = body.email;
    if (body.phone !== undefined) beneficiary.phone = body.phone;
    if (body.birthday !== undefined) beneficiary.birthday = body.birthday;
    if (body.active !== undefined) beneficiary.active = body.active;
    if (body.benefit_plan_code !== undefined) {
      const plan = await this.benefitPlan(body.benefit_plan_code);
      beneficiary.benefitPlanId = plan.id;
      beneficiary.benefitPlanCode = plan.code;
    }
    const { benefitPlan: _dropped, benefitPlanCode, ...columns } = beneficiary;
    await this.repository.beneficiaries.save(columns);
    return beneficiaryDto({ ...beneficiary, benefitPlanCode });
  }

  /**
   * Upsert by CPF of up to 10,000 rows in one transaction: each chunk is one multi-row statement, after one
   * query for the rows that exist. Absent fields keep their current value on update.
   */
  async bulkImport(body: BulkImportDto): Promise<BulkImportResultDto> {
    if (body.beneficiaries.length > MAX_BULK_ROWS) {
      throw invalidParameter(`beneficiaries must hold at most ${MAX_BULK_ROWS} rows; split the import`);
    }
    const plans = await this.repository.benefitPlans.find();
    const planIds = new Map(plans.map((plan) => [plan.code, plan.id]));
    const { valid, errors } = validateRows(body.beneficiaries, new Set(planIds.keys()));
    let created = 0;
    let updated = 0;
    await this.repository.dataSource.transaction(async (manager) => {
      for (let start = 0; start < valid.length; start += BULK_CHUNK) {
        const chunk = valid.slice(start, start + BULK_CHUNK);
        const stored = new Map(
          (
            await this.repository.storedBeneficiaries(
              manager,
              chunk.map((row) => row.cpf),
            )
          ).map((row) => [row.cpf, row]),
        );
        const written = await this.writeChunk(manager, chunk, stored, planIds, errors);
        for (const row of written) {
          if (stored.has(row.cpf)) updated++;
          else created++;
        }
      }
    });
    errors.sort((a, b) => a.index - b.index);
    return { created, updated, errors };
  }

  /**
   * Writes a chunk in one statement. Codes are checked first: ON DUPLICATE KEY UPDATE would otherwise update
   * the beneficiary that owns a colliding code. A code given for a row that belongs to someone else fails
   * that row; a generated one that collides is generated again.
   */
  private async writeChunk(
    manager: EntityManager,
    chunk: BeneficiaryRow[],
    stored: Map<string, StoredBeneficiaryRow>,
    planIds: Map<string, number>,
    errors: RowError[],
  ): Promise<BeneficiaryRow[]> {
    const codes = new Map(
      chunk.map((row) => [row.cpf, row.code ?? stored.get(row.cpf)?.code ?? generateCode()]),
    );
    const owners = await this.repository.codeOwners(manager, [...codes.values()]);
    const used = new Set(codes.values());
    const rows: BeneficiaryRow[] = [];
    for (const row of chunk) {
      let code = codes.get(row.cpf) as string;
      const owner = owners.get(code);
      if (owner !== undefined && owner !== row.cpf) {
        if (row.code !== undefined) {
          errors.push({
            index: row.index,
            label: 'invalid_parameter',
            message: `code ${row.code} is already taken by another beneficiary`,
          });
          continue;
        }
        do code = generateCode();
        while (used.has(code) || owners.has(code));
        used.add(code);
        codes.set(row.cpf, code);
      }
      rows.push(row);
    }
    if (rows.length === 0) return rows;
    await this.repository.upsertBeneficiaries(
      manager,
      rows.map((row) => {
        const current = stored.get(row.cpf);
        return [
          row.cpf,
          codes.get(row.cpf),
          row.name,
          row.email !== undefined ? row.email : (current?.email ?? null),
          row.phone !== undefined ? row.phone : (current?.phone ?? null),
          row.birthday !== undefined ? row.birthday : (current?.birthday ?? null),
          row.active ?? (current ? Boolean(current.active) : true),
          planIds.get(row.benefitPlanCode),
        ];
      }),
    );
    return rows;
  }

  private async benefitPlan(code: string): Promise<BenefitPlanEntity> {
    const plan = await this.repository.benefitPlans.findOne({ where: { code: code.toUpperCase() } });
    if (!plan) throw invalidParameter(`benefit_plan_code ${code} does not exist`);
    return plan;
  }

  private async findBeneficiary(rawCpf: string): Promise<BeneficiaryWithPlan> {
    const cpf = normalizeCpf(rawCpf);
    const beneficiary = /^\d{11}$/.test(cpf) ? await this.repository.findBeneficiary(cpf) : undefined;
    if (!beneficiary) throw notFound('No beneficiary with this CPF.');
    return beneficiary;
  }
}
