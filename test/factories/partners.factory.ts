import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { generateApiKey, hashKey, KeyVault } from '../../src/common/crypto/key-vault';
import { generateCode } from '../../src/common/domain/codes';
import { PartnerEntity } from '../../src/modules/partners/entities/partner.entity';
import { PlaceEntity } from '../../src/modules/partners/entities/place.entity';
import { PlanEntity } from '../../src/modules/partners/entities/plan.entity';
import { PlaceSummaryRepository } from '../../src/modules/partners/place-summary.repository';
import { TestApp } from '../support/test-app';

export interface CreatedPartner {
  partner: PartnerEntity;
  partnerApiKey: string;
}

export interface CreatedPlace {
  place: PlaceEntity;
  placeApiKey: string;
}

function vault(t: TestApp): KeyVault {
  return new KeyVault(t.config.keyEncryptionSecret);
}

export async function createPartner(
  t: TestApp,
  overrides: Partial<PartnerEntity> = {},
): Promise<CreatedPartner> {
  const partnerApiKey = generateApiKey('ptk');
  const partner = await t.dataSource.getRepository(PartnerEntity).save({
    name: 'Acme Fitness',
    apiKeyHash: hashKey(partnerApiKey),
    apiKeyCiphertext: vault(t).seal(partnerApiKey),
    ...overrides,
  });
  return { partner, partnerApiKey };
}

export async function createPlace(
  t: TestApp,
  partner: PartnerEntity,
  overrides: Partial<PlaceEntity> = {},
): Promise<CreatedPlace> {
  const placeApiKey = generateApiKey('plk');
  const place = await t.dataSource.getRepository(PlaceEntity).save({
    id: randomUUID(),
    partnerId: partner.id,
    name: 'Acme Paulista',
    code: generateCode(),
    active: true,
    apiKeyHash: hashKey(placeApiKey),
    apiKeyCiphertext: vault(t).seal(placeApiKey),
    ...overrides,
  });
  return { place, placeApiKey };
}

export async function createPlan(
  dataSource: DataSource,
  place: PlaceEntity,
  overrides: Partial<PlanEntity> = {},
): Promise<PlanEntity> {
  const plan = await dataSource.getRepository(PlanEntity).save({
    placeId: place.id,
    name: 'Musculação',
    code: generateCode(),
    tier: 1,
    externalReference: null,
    ...overrides,
  });
  await new PlaceSummaryRepository(dataSource).refresh(place.id);
  return plan;
}

/** Soft-deletes a plan as the control panel does, summary included. */
export async function deletePlan(dataSource: DataSource, plan: PlanEntity): Promise<void> {
  await dataSource.query('UPDATE plans SET deleted_at = NOW(3) WHERE id = ?', [plan.id]);
  await new PlaceSummaryRepository(dataSource).refresh(plan.placeId);
}

/** A partner with one active place and one plan: the usual starting point. */
export async function createGym(
  t: TestApp,
  placeOverrides: Partial<PlaceEntity> = {},
  planOverrides: Partial<PlanEntity> = {},
) {
  const { partner, partnerApiKey } = await createPartner(t);
  const { place, placeApiKey } = await createPlace(t, partner, placeOverrides);
  const plan = await createPlan(t.dataSource, place, planOverrides);
  return { partner, partnerApiKey, place, placeApiKey, plan };
}
