import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { generateApiKey, hashKey, KeyVault } from '../../common/crypto/key-vault';
import { generateCode } from '../../common/domain/codes';
import { invalidParameter, notFound } from '../../common/errors/domain-error';
import { formatInZone } from '../../common/time/business-time';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PlaceKeyCache } from '../auth/place-key-cache';
import { PartnerEntity } from '../partners/entities/partner.entity';
import { PlaceEntity } from '../partners/entities/place.entity';
import { PlanEntity } from '../partners/entities/plan.entity';
import { ControlPanelRepository, isDuplicateEntry } from './control-panel.repository';
import {
  AdminPlanDto,
  CreatePartnerDto,
  CreatePlaceDto,
  CreatePlanDto,
  PartnerDetailDto,
  PartnerDto,
  PartnerKeyDto,
  PlaceDetailDto,
  PlaceDto,
  PlaceKeyDto,
  TrackUsagesQueryDto,
  UpdatePlaceDto,
  VisitPageDto,
} from './dto/partners.dto';

const CODE_ATTEMPTS = 5;
const VISITS_PAGE_SIZE = 50;

/** Retries a write with a fresh generated code while the code collides; a given code is tried once. */
export async function withCode<T>(
  given: string | undefined,
  write: (code: string) => Promise<T>,
  taken: string,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const code = given ?? generateCode();
    try {
      return await write(code);
    } catch (error) {
      if (!isDuplicateEntry(error)) throw error;
      if (given !== undefined) throw invalidParameter(`code ${given} is already taken${taken}`);
      if (attempt >= CODE_ATTEMPTS) throw error;
    }
  }
}

function parseInstant(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw invalidParameter(`${field} must be an ISO 8601 date or time`);
  return date;
}

/** Partners, places, plans and key rotation. */
@Injectable()
export class PartnersAdminService {
  constructor(
    private readonly repository: ControlPanelRepository,
    private readonly vault: KeyVault,
    private readonly keyCache: PlaceKeyCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createPartner(body: CreatePartnerDto): Promise<PartnerDto> {
    const key = generateApiKey('ptk');
    const partner = await this.repository.partners.save({
      name: body.name.trim(),
      apiKeyHash: hashKey(key),
      apiKeyCiphertext: this.vault.seal(key),
    });
    return { id: partner.id, name: partner.name, partner_api_key: key };
  }

  async getPartner(id: string): Promise<PartnerDetailDto> {
    const partner = await this.findPartner(id);
    const places = await this.repository.places.find({
      where: { partnerId: partner.id },
      order: { createdAt: 'ASC' },
    });
    return { ...this.partnerDto(partner), places: places.map((place) => this.placeDto(place)) };
  }

  async rotatePartnerKey(id: string): Promise<PartnerKeyDto> {
    const partner = await this.findPartner(id);
    const key = generateApiKey('ptk');
    await this.repository.rotatePartnerKey(partner.id, hashKey(key), this.vault.seal(key));
    this.keyCache.invalidatePartner(partner.id);
    return { partner_api_key: key };
  }

  async createPlace(body: CreatePlaceDto): Promise<PlaceDto> {
    const partner = await this.repository.partners.findOne({ where: { id: body.partner_id } });
    if (!partner) throw notFound(`No partner ${body.partner_id}.`);
    const key = generateApiKey('plk');
    const place = await withCode(
      body.code,
      (code) =>
        this.repository.places.save(
          this.repository.places.create({
            id: randomUUID(),
            partnerId: partner.id,
            name: body.name.trim(),
            code,
            active: body.active ?? true,
            apiKeyHash: hashKey(key),
            apiKeyCiphertext: this.vault.seal(key),
          }),
        ),
      ' by another place',
    );
    return this.placeDto(place);
  }

  async getPlace(id: string): Promise<PlaceDetailDto> {
    const place = await this.findPlace(id);
    const plans = await this.repository.plans.find({ where: { placeId: place.id }, order: { id: 'ASC' } });
    return { ...this.placeDto(place), plans: plans.map(planDto) };
  }

  async updatePlace(id: string, body: UpdatePlaceDto): Promise<PlaceDto> {
    const place = await this.findPlace(id);
    if (body.name !== undefined) place.name = body.name.trim();
    if (body.active !== undefined) place.active = body.active;
    await this.repository.places.save(place);
    this.keyCache.invalidatePlace(place.id);
    return this.placeDto(place);
  }

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
        this.repository.plans.save(
          this.repository.plans.create({
            placeId: place.id,
            name: body.name.trim(),
            code,
            tier: body.tier,
            externalReference: body.externalReference ?? null,
          }),
        ),
      ' by another plan',
    );
    return planDto(plan);
  }

  async deletePlan(placeId: string, code: string): Promise<AdminPlanDto> {
    const place = await this.findPlace(placeId);
    const plan = await this.repository.plans.findOne({
      where: { placeId: place.id, code: code.toUpperCase() },
    });
    if (!plan) throw notFound(`No active plan ${code} at this place.`);
    await this.repository.plans.softDelete(plan.id);
    const deleted = await this.repository.plans.findOne({ where: { id: plan.id }, withDeleted: true });
    return planDto(deleted ?? plan);
  }

  async visits(placeId: string, query: TrackUsagesQueryDto): Promise<VisitPageDto> {
    const place = await this.findPlace(placeId);
    const from = parseInstant(query.from, 'from');
    const to = parseInstant(query.to, 'to');
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
        created_at: formatInZone(row.createdAt, this.config.businessTimezone),
      })),
      page,
      page_size: VISITS_PAGE_SIZE,
      total,
    };
  }

  private async findPartner(id: string): Promise<PartnerEntity> {
    const numeric = /^\d{1,10}$/.test(id) ? Number(id) : NaN;
    const partner = Number.isNaN(numeric)
      ? null
      : await this.repository.partners.findOne({ where: { id: numeric } });
    if (!partner) throw notFound(`No partner ${id}.`);
    return partner;
  }

  private async findPlace(id: string): Promise<PlaceEntity> {
    const place = id.length <= 36 ? await this.repository.places.findOne({ where: { id } }) : null;
    if (!place) throw notFound(`No place ${id}.`);
    return place;
  }

  private partnerDto(partner: PartnerEntity): PartnerDto {
    return { id: partner.id, name: partner.name, partner_api_key: this.vault.open(partner.apiKeyCiphertext) };
  }

  private placeDto(place: PlaceEntity): PlaceDto {
    return {
      id: place.id,
      partner_id: place.partnerId,
      name: place.name,
      code: place.code,
      active: place.active,
      place_api_key: this.vault.open(place.apiKeyCiphertext),
    };
  }
}

export function planDto(plan: PlanEntity): AdminPlanDto {
  return {
    id: plan.id,
    name: plan.name,
    code: plan.code,
    tier: plan.tier,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
    deletedAt: plan.deletedAt,
    placeId: plan.placeId,
    externalReference: plan.externalReference,
  };
}
