import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashKey, KeyVault, maskApiKey } from '../../common/crypto/key-vault';
import { maskCpf } from '../../common/domain/cpf';
import { invalidParameter, notFound } from '../../common/errors/domain-error';
import { CSV_BATCH, csvLines } from '../../common/http/csv';
import { Page, pageOf, paging } from '../../common/http/paging';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuditLog } from '../audit/audit-log';
import { Caller } from '../auth/caller';
import { PlaceKeyCache } from '../auth/place-key-cache';
import { PlaceEntity } from '../partners/entities/place.entity';
import { toPlaceDto, toPlanDto } from './control-panel.mappers';
import { PartnersRepository } from '../partners/partners.repository';
import { VisitListRow, VisitsRepository } from '../eligibility/visits.repository';
import { KeyRotation } from './key-rotation';
import {
  AdminPlanDto,
  CreatePlaceDto,
  CreatePlanDto,
  PlaceDetailDto,
  PlaceDto,
  PlaceKeyDto,
  PlaceListItemDto,
  PlacesQueryDto,
  RevealedKeysDto,
  TrackUsagesQueryDto,
  UpdatePlaceDto,
  VisitListItemDto,
  VisitPageDto,
  VisitsExportQueryDto,
  VisitsQueryDto,
} from './dto/places.dto';
import { withCode } from './generated-code';
import { InvalidInstantError, parseBound } from './visit-window';
import { Transactions } from '../../database/transactions';

/**
 * Places (gym units), their keys, their plans and their visits. A gym account reaches only the places of its
 * scope: any other place id answers 404 as if it did not exist.
 */
@Injectable()
export class PlacesAdminService {
  constructor(
    private readonly visitsRepository: VisitsRepository,
    private readonly partners: PartnersRepository,
    private readonly transactions: Transactions,
    private readonly vault: KeyVault,
    private readonly keyCache: PlaceKeyCache,
    private readonly audit: AuditLog,
    private readonly keys: KeyRotation,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Places by name; a gym account sees its own only. */
  async listPlaces(caller: Caller, query: PlacesQueryDto): Promise<Page<PlaceListItemDto>> {
    const page = paging(query);
    const { rows, total } = await this.partners.listPlaces(
      {
        q: query.q?.trim() || undefined,
        partnerId: query.partner_id === undefined ? undefined : Number(query.partner_id),
        scope: caller.placeScope,
      },
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => ({
        id: row.id,
        partner_id: row.partnerId,
        partner_name: row.partnerName,
        name: row.name,
        code: row.code,
        gym_id: Number(row.gymId),
        active: Boolean(Number(row.active)),
        webhook_subscribed: Boolean(Number(row.webhookSubscribed)),
      })),
      page,
      total,
    );
  }

  async createPlace(caller: Caller, body: CreatePlaceDto): Promise<PlaceDto> {
    const partner = await this.partners.findPartner(body.partner_id);
    if (!partner) throw notFound('controlPanel.partnerNotFound', { id: body.partner_id });
    const key = generateApiKey('plk');
    const place = await this.transactions.run(async (manager) => {
      const repository = this.partners.in(manager);
      const created = await withCode(
        body.code,
        (code) =>
          repository.insertPlace({
            id: randomUUID(),
            partnerId: partner.id,
            name: body.name.trim(),
            code,
            active: body.active ?? true,
            apiKeyHash: hashKey(key),
            apiKeyCiphertext: this.vault.seal(key),
          }),
        'field.codeTakenByPlace',
      );
      await this.audit.write(manager, caller.actor, {
        action: 'place.create',
        targetType: 'place',
        targetId: created.id,
        details: { partner_id: partner.id, name: created.name, code: created.code, active: created.active },
      });
      return created;
    });
    return toPlaceDto(place, key);
  }

  async getPlace(caller: Caller, id: string): Promise<PlaceDetailDto> {
    const place = await this.findPlace(caller, id);
    const plans = await this.partners.plansOfPlace(place.id);
    return { ...this.placeDto(caller, place), plans: plans.map(toPlanDto) };
  }

  async updatePlace(caller: Caller, id: string, body: UpdatePlaceDto): Promise<PlaceDto> {
    const place = await this.findPlace(caller, id);
    const changes = {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.active !== undefined && { active: body.active }),
    };
    await this.transactions.run(async (manager) => {
      const repository = this.partners.in(manager);
      await repository.updatePlace(place.id, changes);
      await this.audit.write(manager, caller.actor, {
        action: 'place.update',
        targetType: 'place',
        targetId: place.id,
        details: changes,
      });
    });
    // Cached lookups carry `active`: a delisted gym must answer gym_inactive at once.
    this.keyCache.invalidatePlace(place.id);
    return this.placeDto(caller, Object.assign(place, changes));
  }

  /**
   * The new key, whole, to whoever rotated it. The old key stops at once: its hash no longer matches, and the
   * version in old tokens is stale.
   */
  async rotatePlaceKey(caller: Caller, id: string): Promise<PlaceKeyDto> {
    const place = await this.findPlace(caller, id);
    return { place_api_key: await this.keys.rotate(caller, { type: 'place', id: place.id }) };
  }

  /**
   * The place's key whole, and its partner's key for whoever may hold it (operators, chain accounts of the
   * partner). Every reveal is audited, in a transaction of its own.
   */
  async revealKeys(caller: Caller, id: string): Promise<RevealedKeysDto> {
    const place = await this.findPlace(caller, id);
    const withPartnerKey = caller.reachesPartnerKey(place.partnerId);
    const partner = withPartnerKey ? await this.partners.findPartner(place.partnerId) : null;
    await this.transactions.run((manager) =>
      this.audit.write(manager, caller.actor, {
        action: 'key.reveal',
        targetType: 'place',
        targetId: place.id,
        details: { place_api_key: true, partner_api_key: partner !== null },
      }),
    );
    return {
      place_api_key: this.vault.open(place.apiKeyCiphertext),
      partner_api_key: partner ? this.vault.open(partner.apiKeyCiphertext) : null,
    };
  }

  async createPlan(caller: Caller, placeId: string, body: CreatePlanDto): Promise<AdminPlanDto> {
    const place = await this.findPlace(caller, placeId);
    const plan = await this.transactions.run(async (manager) => {
      const repository = this.partners.in(manager);
      const created = await withCode(
        body.code,
        (code) =>
          repository.insertPlan({
            placeId: place.id,
            name: body.name.trim(),
            code,
            tier: body.tier,
            externalReference: body.externalReference ?? null,
          }),
        'field.codeTakenByPlan',
      );
      await this.audit.write(manager, caller.actor, {
        action: 'plan.create',
        targetType: 'plan',
        targetId: created.code,
        details: { place_id: place.id, name: created.name, tier: created.tier },
      });
      return created;
    });
    return toPlanDto(plan);
  }

  async deletePlan(caller: Caller, placeId: string, code: string): Promise<AdminPlanDto> {
    const place = await this.findPlace(caller, placeId);
    const plan = await this.partners.findPlanOfPlace(place.id, code.toUpperCase());
    if (!plan) throw notFound('controlPanel.planNotFound', { code });
    const deleted = await this.transactions.run(async (manager) => {
      const repository = this.partners.in(manager);
      const stored = await repository.softDeletePlan(plan);
      await this.audit.write(manager, caller.actor, {
        action: 'plan.delete',
        targetType: 'plan',
        targetId: plan.code,
        details: { place_id: place.id },
      });
      return stored;
    });
    return toPlanDto(deleted);
  }

  /** A place's visits, newest first; CPFs masked for support. */
  async visits(caller: Caller, placeId: string, query: TrackUsagesQueryDto): Promise<VisitPageDto> {
    const place = await this.findPlace(caller, placeId);
    const page = paging(query);
    const { from, to } = this.window(query);
    const { rows, total } = await this.visitsRepository.visitsOfPlace(
      place.id,
      from,
      to,
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => ({
        id: String(row.id),
        beneficiary_code: row.beneficiaryCode,
        cpf: caller.seesWholeCpfs ? row.cpf : maskCpf(row.cpf),
        plan_code: row.planCode,
        created_at: formatInZone(row.createdAt, this.config.businessTimezone),
        custom_code: row.customCode ?? null,
      })),
      page,
      total,
    );
  }

  /** Visits of every place (or of `place_id`), newest first: the operators' check-ins screen. */
  async allVisits(caller: Caller, query: VisitsQueryDto): Promise<Page<VisitListItemDto>> {
    const page = paging(query);
    const { from, to } = this.window(query);
    const { rows, total } = await this.visitsRepository.listVisits(
      { placeId: query.place_id, from, to },
      page.offset,
      page.pageSize,
    );
    return pageOf(
      rows.map((row) => ({
        id: String(row.id),
        place_id: row.placeId,
        place_name: row.placeName,
        beneficiary_code: row.beneficiaryCode,
        cpf: caller.seesWholeCpfs ? row.cpf : maskCpf(row.cpf),
        plan_code: row.planCode,
        created_at: formatInZone(row.createdAt, this.config.businessTimezone),
        custom_code: row.customCode ?? null,
      })),
      page,
      total,
    );
  }

  /** The visits `allVisits` finds, as CSV lines, newest first; the window is checked before the first line. */
  exportVisits(caller: Caller, query: VisitsExportQueryDto): AsyncGenerator<string> {
    const { from, to } = this.window(query);
    const filter = { placeId: query.place_id, from, to };
    return csvLines(
      ['id', 'created_at', 'place_id', 'place_name', 'beneficiary_code', 'cpf', 'plan_code'],
      (after: VisitListRow | undefined) => this.visitsRepository.exportVisits(filter, after?.id, CSV_BATCH),
      (row) => [
        String(row.id),
        formatInZone(row.createdAt, this.config.businessTimezone),
        row.placeId,
        row.placeName,
        row.beneficiaryCode,
        caller.seesWholeCpfs ? row.cpf : maskCpf(row.cpf),
        row.planCode,
      ],
    );
  }

  private window(query: { from?: string; to?: string }): { from?: Date; to?: Date } {
    return {
      from: query.from === undefined ? undefined : this.bound(query.from, 'from', false),
      to: query.to === undefined ? undefined : this.bound(query.to, 'to', true),
    };
  }

  private bound(value: string, field: 'from' | 'to', endOfDay: boolean): Date {
    try {
      return parseBound(value, this.config.businessTimezone, endOfDay);
    } catch (error) {
      if (!(error instanceof InvalidInstantError)) throw error;
      throw invalidParameter('field.dateOrInstant', { field });
    }
  }

  /** The place, if the caller reaches it; 404 alike for a place that does not exist and one outside its scope. */
  private async findPlace(caller: Caller, id: string): Promise<PlaceEntity> {
    const place = await this.partners.findPlace(id);
    if (!place || !caller.reachesPlace(place)) throw notFound('controlPanel.placeNotFound', { id });
    return place;
  }

  private placeDto(caller: Caller, place: PlaceEntity): PlaceDto {
    const key = this.vault.open(place.apiKeyCiphertext);
    return toPlaceDto(place, caller.seesWholeKeys ? key : maskApiKey(key));
  }
}
