import { Locale } from '../../common/i18n/locale';
import { translate } from '../../common/i18n/messages';
import { BenefitPlanEntity } from '../beneficiaries/entities/benefit-plan.entity';
import { PartnerEntity } from '../partners/entities/partner.entity';
import { PlaceEntity } from '../partners/entities/place.entity';
import { PlanEntity } from '../partners/entities/plan.entity';
import { productIdOf } from '../partners/product-id';
import { BulkImportResult } from './bulk-rows';
import { BeneficiaryWithPlan } from '../beneficiaries/beneficiaries.repository';
import { BeneficiaryDto, BulkImportResultDto } from './dto/beneficiaries.dto';
import { BenefitPlanDto } from './dto/benefit-plans.dto';
import { PartnerDto } from './dto/partners.dto';
import { AdminPlanDto, PlaceDto } from './dto/places.dto';

/** The import's outcome, each refused row's reason in the reader's language. */
export function toBulkImportResultDto(result: BulkImportResult, locale: Locale): BulkImportResultDto {
  return {
    ...result,
    errors: result.errors.map((error) => ({ ...error, message: translate(locale, error.message) })),
  };
}

export function toPartnerDto(partner: PartnerEntity, partnerApiKey: string): PartnerDto {
  return { id: partner.id, name: partner.name, partner_api_key: partnerApiKey };
}

export function toPlaceDto(place: PlaceEntity, placeApiKey: string): PlaceDto {
  return {
    id: place.id,
    partner_id: place.partnerId,
    name: place.name,
    code: place.code,
    gym_id: Number(place.gymId),
    active: place.active,
    place_api_key: placeApiKey,
  };
}

export function toPlanDto(plan: PlanEntity): AdminPlanDto {
  return {
    id: plan.id,
    product_id: productIdOf(plan.id),
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

export function toBenefitPlanDto(plan: BenefitPlanEntity): BenefitPlanDto {
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

export function toBeneficiaryDto(beneficiary: BeneficiaryWithPlan): BeneficiaryDto {
  return {
    cpf: beneficiary.cpf,
    code: beneficiary.code,
    member_number: String(beneficiary.memberNumber),
    name: beneficiary.name,
    email: beneficiary.email,
    phone: beneficiary.phone,
    birthday: beneficiary.birthday,
    active: beneficiary.active,
    benefit_plan_code: beneficiary.benefitPlanCode,
  };
}
