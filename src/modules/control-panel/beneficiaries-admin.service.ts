import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { generateCode } from '../../common/domain/codes';
import { isValidCpf, maskCpf, normalizeCpf } from '../../common/domain/cpf';
import { invalidParameter, notFound } from '../../common/errors/domain-error';
import { CSV_BATCH, csvLines } from '../../common/http/csv';
import { Page, pageOf, PageQueryDto, paging } from '../../common/http/paging';
import { formatInZone, startOfMonth } from '../../common/time/business-time';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuditLog } from '../audit/audit-log';
import { Caller } from '../auth/caller';
import { message } from '../../common/i18n/messages';
import { BenefitPlanEntity } from '../beneficiaries/entities/benefit-plan.entity';
import { BeneficiaryRow, bulkRowsOf, BulkImportResult, RowError, validateRows } from './bulk-rows';
import { toBeneficiaryDto } from './control-panel.mappers';
import {
  BeneficiaryChanges,
  BeneficiaryTuple,
  BeneficiaryWithPlan,
  BeneficiariesRepository,
  StoredBeneficiaryRow,
} from '../beneficiaries/beneficiaries.repository';
import { VisitsRepository } from '../eligibility/visits.repository';
import {
  BeneficiariesExportQueryDto,
  BeneficiariesQueryDto,
  BeneficiaryDto,
  BeneficiaryListItemDto,
  BeneficiaryUsageDto,
  BeneficiaryVisitDto,
  CreateBeneficiaryDto,
  UpdateBeneficiaryDto,
} from './dto/beneficiaries.dto';
import { withCode } from './generated-code';
import { Leases } from '../../database/leases';
import { Transactions } from '../../database/transactions';

const BENEFICIARY_CODE = /^[A-Za-z0-9]{8}$/;

/** Rows per INSERT … ON DUPLICATE KEY UPDATE statement. */
const BULK_CHUNK = 1000;
/** An import holds its lease for this long between renewals; another waits up to a minute for its turn. */
const BULK_IMPORT_LEASE = { ttlMs: 30_000, waitMs: 60_000 };

/** A generated code not in `taken`, which it joins. */
function freshCode(taken: Set<string>): string {
  let code: string;
  do code = generateCode();
  while (taken.has(code));
  taken.add(code);
  return code;
}

/**
 * Beneficiaries, one by one and in bulk. Audit entries name a beneficiary by its code and list the fields
 * changed, never their personal data.
 */
@Injectable()
export class BeneficiariesAdminService {
  constructor(
    private readonly repository: BeneficiariesRepository,
    private readonly visitsRepository: VisitsRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditLog,
    private readonly leases: Leases,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** By name; CPFs masked for support. */
  async listBeneficiaries(
    caller: Caller,
    query: BeneficiariesQueryDto,
  ): Promise<Page<BeneficiaryListItemDto>> {
    const page = paging(query);
    const { rows, total } = await this.repository.listBeneficiaries(
      query.q?.trim() || undefined,
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => ({
        cpf: caller.seesWholeCpfs ? row.cpf : maskCpf(row.cpf),
        code: row.code,
        member_number: String(row.memberNumber),
        name: row.name,
        email: row.email,
        active: Boolean(Number(row.active)),
        benefit_plan_code: row.benefitPlanCode,
      })),
      page,
      total,
    );
  }

  /** The beneficiaries the list finds, as CSV lines, in the order they were created; CPFs masked for support. */
  exportBeneficiaries(caller: Caller, query: BeneficiariesExportQueryDto): AsyncGenerator<string> {
    const q = query.q?.trim() || undefined;
    return csvLines(
      ['cpf', 'code', 'name', 'email', 'active', 'benefit_plan_code'],
      (after: { id: number } | undefined) =>
        this.repository.exportBeneficiaries(q, after ? Number(after.id) : 0, CSV_BATCH),
      (row) => [
        caller.seesWholeCpfs ? row.cpf : maskCpf(row.cpf),
        row.code,
        row.name,
        row.email,
        Boolean(Number(row.active)),
        row.benefitPlanCode,
      ],
    );
  }

  async createBeneficiary(caller: Caller, body: CreateBeneficiaryDto): Promise<BeneficiaryDto> {
    const cpf = normalizeCpf(body.cpf);
    if (!isValidCpf(cpf)) throw invalidParameter('field.cpfCheckDigits', { field: 'cpf' });
    const plan = await this.benefitPlan(body.benefit_plan_code);
    const beneficiary = await this.transactions.run(async (manager) => {
      const repository = this.repository.in(manager);
      const created = await withCode(
        body.code,
        (code) =>
          repository.insertBeneficiary({
            cpf,
            code,
            name: body.name.trim(),
            email: body.email ?? null,
            phone: body.phone ?? null,
            birthday: body.birthday ?? null,
            active: body.active ?? true,
            benefitPlanId: plan.id,
          }),
        'field.codeTakenByBeneficiary',
      );
      await this.audit.write(manager, caller.actor, {
        action: 'beneficiary.create',
        targetType: 'beneficiary',
        targetId: created.code,
        details: { benefit_plan_code: plan.code, active: created.active },
      });
      return created;
    });
    return toBeneficiaryDto({ ...beneficiary, benefitPlanCode: plan.code });
  }

  async getBeneficiary(caller: Caller, rawCpf: string): Promise<BeneficiaryDto> {
    const dto = toBeneficiaryDto(await this.findBeneficiary(rawCpf));
    return caller.seesWholeCpfs ? dto : { ...dto, cpf: maskCpf(dto.cpf) };
  }

  async updateBeneficiary(
    caller: Caller,
    rawCpf: string,
    body: UpdateBeneficiaryDto,
  ): Promise<BeneficiaryDto> {
    const beneficiary = await this.findBeneficiary(rawCpf);
    const plan =
      body.benefit_plan_code === undefined ? undefined : await this.benefitPlan(body.benefit_plan_code);
    const changes: BeneficiaryChanges = {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.email !== undefined && { email: body.email }),
      ...(body.phone !== undefined && { phone: body.phone }),
      ...(body.birthday !== undefined && { birthday: body.birthday }),
      ...(body.active !== undefined && { active: body.active }),
      ...(plan && { benefitPlanId: plan.id }),
    };
    await this.transactions.run(async (manager) => {
      const repository = this.repository.in(manager);
      await repository.updateBeneficiary(beneficiary.id, changes);
      await this.audit.write(manager, caller.actor, {
        action: 'beneficiary.update',
        targetType: 'beneficiary',
        targetId: beneficiary.code,
        details: {
          fields: Object.keys(body).filter(
            (field) => body[field as keyof UpdateBeneficiaryDto] !== undefined,
          ),
          ...(body.active !== undefined && { active: body.active }),
          ...(plan && { benefit_plan_code: plan.code }),
        },
      });
    });
    return toBeneficiaryDto({
      ...beneficiary,
      ...changes,
      benefitPlanCode: plan ? plan.code : beneficiary.benefitPlanCode,
    });
  }

  /**
   * Upsert by CPF in one transaction: per chunk, one query for the CPFs that exist, one for the codes in use,
   * and one multi-row statement. Fields absent from a row keep their current value on update.
   */
  async bulkImport(caller: Caller, body: unknown): Promise<BulkImportResult> {
    const rows = bulkRowsOf(body);
    const planIds = new Map((await this.repository.benefitPlans()).map((plan) => [plan.code, plan.id]));
    const { valid, errors: invalid } = validateRows(rows, new Set(planIds.keys()));
    // One import at a time, over every process and node (their locking reads would deadlock each other); a
    // conflict with a single-beneficiary write rolls the whole import back and Transactions runs it again.
    const result = await this.leases.run('beneficiary-import', BULK_IMPORT_LEASE, () =>
      this.transactions.run(async (manager) => {
        const imported = await this.importRows(manager, valid, planIds, [...invalid]);
        await this.audit.write(manager, caller.actor, {
          action: 'beneficiary.bulk_import',
          targetType: 'beneficiary',
          details: {
            rows: rows.length,
            created: imported.created,
            updated: imported.updated,
            refused: imported.errors.length,
          },
        });
        return imported;
      }),
    );
    result.errors.sort((a, b) => a.index - b.index);
    return result;
  }

  private async importRows(
    manager: EntityManager,
    valid: BeneficiaryRow[],
    planIds: Map<string, number>,
    errors: RowError[],
  ): Promise<BulkImportResult> {
    let created = 0;
    let updated = 0;
    for (let start = 0; start < valid.length; start += BULK_CHUNK) {
      const chunk = valid.slice(start, start + BULK_CHUNK);
      const cpfs = chunk.map((row) => row.cpf);
      const stored = new Map(
        (await this.repository.storedBeneficiaries(manager, cpfs)).map((row) => [row.cpf, row]),
      );
      const written = await this.writeChunk(manager, chunk, stored, planIds, errors);
      for (const row of written) {
        if (stored.has(row.cpf)) updated++;
        else created++;
      }
    }
    return { created, updated, errors };
  }

  /**
   * Writes a chunk in one statement. Codes are checked first, since ON DUPLICATE KEY UPDATE would otherwise
   * overwrite the beneficiary that owns a colliding code: a given code owned by someone else fails its row;
   * a generated one that collides is generated again.
   */
  private async writeChunk(
    manager: EntityManager,
    chunk: BeneficiaryRow[],
    stored: Map<string, StoredBeneficiaryRow>,
    planIds: Map<string, number>,
    errors: RowError[],
  ): Promise<BeneficiaryRow[]> {
    const taken = new Set<string>();
    for (const row of chunk) {
      if (row.code !== undefined) taken.add(row.code);
      const storedCode = stored.get(row.cpf)?.code;
      if (storedCode !== undefined) taken.add(storedCode);
    }
    const codes = new Map(
      chunk.map((row) => [row.cpf, row.code ?? stored.get(row.cpf)?.code ?? freshCode(taken)]),
    );
    const owners = await this.repository.codeOwners(manager, [...codes.values()]);
    for (const code of owners.keys()) taken.add(code);
    const rows: BeneficiaryRow[] = [];
    for (const row of chunk) {
      const owner = owners.get(codes.get(row.cpf) as string);
      if (owner !== undefined && owner !== row.cpf) {
        if (row.code !== undefined) {
          errors.push({
            index: row.index,
            label: 'invalid_parameter',
            message: message('field.codeTakenByBeneficiary', { value: row.code }),
          });
          continue;
        }
        codes.set(row.cpf, freshCode(taken));
      }
      rows.push(row);
    }
    if (rows.length === 0) return rows;
    await this.repository.upsertBeneficiaries(
      manager,
      rows.map((row): BeneficiaryTuple => {
        const current = stored.get(row.cpf);
        return [
          row.cpf,
          codes.get(row.cpf) as string,
          row.name,
          row.email !== undefined ? row.email : (current?.email ?? null),
          row.phone !== undefined ? row.phone : (current?.phone ?? null),
          row.birthday !== undefined ? row.birthday : (current?.birthday ?? null),
          row.active ?? (current ? Boolean(current.active) : true),
          planIds.get(row.benefitPlanCode) as number,
        ];
      }),
    );
    return rows;
  }

  private async benefitPlan(code: string): Promise<BenefitPlanEntity> {
    const plan = await this.repository.findBenefitPlan(code.toUpperCase());
    if (!plan) throw invalidParameter('controlPanel.benefitPlanMissing', { code });
    return plan;
  }

  /** How much of the monthly limit the beneficiary used, counted as the check-in rule counts it. */
  async usage(id: string): Promise<BeneficiaryUsageDto> {
    const beneficiary = await this.findBeneficiary(id);
    const now = this.clock.now();
    const timeZone = this.config.businessTimezone;
    const monthStart = startOfMonth(now, timeZone);
    const { visits, lastVisitAt } = await this.visitsRepository.beneficiaryVisitCount(
      beneficiary.id,
      monthStart,
    );
    const plan = beneficiary.benefitPlan ?? null;
    const limit = plan?.monthlyVisitLimit ?? null;
    return {
      month: formatInZone(now, timeZone).slice(0, 7),
      visits_this_month: visits,
      monthly_visit_limit: limit,
      remaining: limit === null ? null : Math.max(0, limit - visits),
      benefit_plan_code: plan?.code ?? null,
      benefit_plan_name: plan?.name ?? null,
      benefit_plan_tier: plan?.tier ?? null,
      benefit_plan_active: plan ? Boolean(plan.active) : null,
      last_visit_at: lastVisitAt ? formatInZone(new Date(lastVisitAt), timeZone) : null,
    };
  }

  /** The beneficiary's visits at every place, newest first. */
  async visits(id: string, query: PageQueryDto): Promise<Page<BeneficiaryVisitDto>> {
    const beneficiary = await this.findBeneficiary(id);
    const page = paging(query);
    const { rows, total } = await this.visitsRepository.visitsOfBeneficiary(
      beneficiary.id,
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => ({
        id: String(row.id),
        place_id: row.placeId,
        place_name: row.placeName,
        plan_code: row.planCode,
        created_at: formatInZone(new Date(row.createdAt), this.config.businessTimezone),
        custom_code: row.customCode ?? null,
      })),
      page,
      total,
    );
  }

  /** By CPF (any punctuation) or by code: support, who reads CPFs masked, opens a beneficiary by its code. */
  private async findBeneficiary(identifier: string): Promise<BeneficiaryWithPlan> {
    const cpf = normalizeCpf(identifier);
    const beneficiary = isValidCpf(cpf)
      ? await this.repository.findBeneficiary(cpf)
      : BENEFICIARY_CODE.test(identifier)
        ? await this.repository.findBeneficiaryByCode(identifier.toUpperCase())
        : null;
    if (!beneficiary) throw notFound('controlPanel.beneficiaryNotFound');
    return beneficiary;
  }
}
