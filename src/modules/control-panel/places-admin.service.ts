import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashKey, KeyVault } from '../../common/crypto/key-vault';
import { invalidParameter, notFound } from '../../common/errors/domain-error';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PlaceKeyCache } from '../auth/place-key-cache';
import { PlaceEntity } from '../partners/entities/place.entity';
import { toPlaceDto, toPlanDto } from './control-panel.mappers';
import { ControlPanelRepository } from './control-panel.repository';
import {
  AdminPlanDto,
  CreatePlaceDto,
  CreatePlanDto,
  PlaceDetailDto,
  PlaceDto,
  PlaceKeyDto,
  TrackUsagesQueryDto,
  UpdatePlaceDto,
  VisitPageDto,
} from './dto/places.dto';
import { withCode } from './generated-code';
import { InvalidInstantError, parseBound } from './visit-window';

export const VISITS_PAGE_SIZE = 50;

/** Places (gym units), their keys, their plans and their visits. */
@Injectable()
export class PlacesAdminService {
  constructor(
    private readonly repository: ControlPanelRepository,
    private readonly vault: KeyVault,
    private readonly keyCache: PlaceKeyCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createPlace(body: CreatePlaceDto): Promise<PlaceDto> {
    const partner = await this.repository.findPartner(body.partner_id);
    if (!partner) throw notFound('controlPanel.partnerNotFound', { id: body.partner_id });
    const key = generateApiKey('plk');
    const place = await withCode(
      body.code,
      (code) =>
        this.repository.insertPlace({
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
    return toPlaceDto(place, key);
  }

  async getPlace(id: string): Promise<PlaceDetailDto> {
    const place = await this.findPlace(id);
    const plans = await this.repository.plansOfPlace(place.id);
    return { ...this.placeDto(place), plans: plans.map(toPlanDto) };
  }

  async updatePlace(id: string, body: UpdatePlaceDto): Promise<PlaceDto> {
    const place = await this.findPlace(id);
    const changes = {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.active !== undefined && { active: body.active }),
    };
    await this.repository.updatePlace(place.id, changes);
    // Cached lookups carry `active`: a delisted gym must answer gym_inactive at once.
    this.keyCache.invalidatePlace(place.id);
    return this.placeDto(Object.assign(place, changes));
  }

  /** The old key stops at once: its hash no longer matches, and the version in old tokens is stale. */
  async rotatePlaceKey(id: string): Promise<PlaceKeyDto> {
    const place = await this.findPlace(id);
    const key = generateApiKey('plk');
    await this.repository.rotatePlaceKey(place.id, hashKey(key), this.vault.seal(key));
    this.keyCache.invalidatePlace(place.id);
    return { place_api_key: key };
  }

  async createPlan(placeId: string, body: CreatePlanDto): Promise<AdminPlanDto> {
    const place = await this.findPlace(placeId);
    const plan = await withCode(
      body.code,
      (code) =>
        this.repository.insertPlan({
          placeId: place.id,
          name: body.name.trim(),
          code,
          tier: body.tier,
          externalReference: body.externalReference ?? null,
        }),
      'field.codeTakenByPlan',
    );
    return toPlanDto(plan);
  }

  async deletePlan(placeId: string, code: string): Promise<AdminPlanDto> {
    const place = await this.findPlace(placeId);
    const plan = await this.repository.findPlanOfPlace(place.id, code.toUpperCase());
    if (!plan) throw notFound('controlPanel.planNotFound', { code });
    return toPlanDto(await this.repository.softDeletePlan(plan));
  }

  async visits(placeId: string, query: TrackUsagesQueryDto): Promise<VisitPageDto> {
    const place = await this.findPlace(placeId);
    const timeZone = this.config.businessTimezone;
    const from = query.from === undefined ? undefined : this.bound(query.from, 'from', false);
    const to = query.to === undefined ? undefined : this.bound(query.to, 'to', true);
    const page = Number(query.page ?? 1);
    const { rows, total } = await this.repository.visitsOfPlace(
      place.id,
      from,
      to,
      (page - 1) * VISITS_PAGE_SIZE,
      VISITS_PAGE_SIZE,
    );
    return {
      data: rows.map((row) => ({
        id: String(row.id),
        beneficiary_code: row.beneficiaryCode,
        cpf: row.cpf,
        plan_code: row.planCode,
        created_at: formatInZone(row.createdAt, timeZone),
      })),
      page,
      page_size: VISITS_PAGE_SIZE,
      total,
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

  private async findPlace(id: string): Promise<PlaceEntity> {
    const place = await this.repository.findPlace(id);
    if (!place) throw notFound('controlPanel.placeNotFound', { id });
    return place;
  }

  private placeDto(place: PlaceEntity): PlaceDto {
    return toPlaceDto(place, this.vault.open(place.apiKeyCiphertext));
  }
}
