import { Injectable } from '@nestjs/common';
import { KeyVault } from '../../common/crypto/key-vault';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { PlanEntity } from '../partners/entities/plan.entity';
import { PartnersRepository } from '../partners/partners.repository';
import { PLAN_CODE_QUERY_MAX_LENGTH, PlanDto, PlansResponseDto } from './dto/plans.dto';

function toDto(plan: PlanEntity): PlanDto {
  return {
    id: plan.id,
    name: plan.name,
    code: plan.code,
    createdAt: plan.createdAt,
    updatedAt: plan.updatedAt,
    deletedAt: plan.deletedAt,
    placeId: plan.placeId,
    externalReference: plan.externalReference,
  };
}

@Injectable()
export class PlansService {
  constructor(
    private readonly repository: PartnersRepository,
    private readonly vault: KeyVault,
  ) {}

  /** The gym with its active plans, or with `?id=` the matching plans only. */
  list(placeId: string, id: unknown): Promise<PlansResponseDto | PlanDto[]> {
    if (id === undefined) return this.listPlans(placeId);
    if (typeof id !== 'string' || id.length > PLAN_CODE_QUERY_MAX_LENGTH)
      throw new DomainError('invalid_parameter', 'plans.idNotCode');
    // An empty ?id= names no plan: it must not fall back to the whole list.
    if (id.trim() === '') throw new DomainError('invalid_plan', 'plans.idEmpty', { status: 400 });
    return this.findPlans(placeId, id);
  }

  private async listPlans(placeId: string): Promise<PlansResponseDto> {
    const place = await this.repository.findPlace(placeId);
    if (!place) throw new DomainError('not_found', 'plans.placeGone');
    const plans = await this.repository.plansOfPlace(placeId);
    return {
      name: place.name,
      identifier: place.id,
      placeApiKey: this.vault.open(place.apiKeyCiphertext),
      Plans: plans.map(toDto),
    };
  }

  private async findPlans(placeId: string, code: string): Promise<PlanDto[]> {
    const plans = await this.repository.plansOfPlace(placeId, code.trim().toUpperCase());
    if (plans.length === 0) {
      throw new DomainError('invalid_plan', message('checkIn.invalidPlan', { plan: code }), { status: 400 });
    }
    return plans.map(toDto);
  }
}
