import { DataSource, EntityManager } from 'typeorm';
import { generateApiKey, hashKey, KeyVault } from '../src/common/crypto/key-vault';
import { cpfFromBase } from '../src/common/domain/cpf';
import { AccountPlaceEntity } from '../src/modules/accounts/entities/account-place.entity';
import { AccountEntity, Role } from '../src/modules/accounts/entities/account.entity';
import { PasswordHasher } from '../src/modules/accounts/password-hasher';
import { BeneficiaryEntity } from '../src/modules/beneficiaries/entities/beneficiary.entity';
import { BenefitPlanEntity } from '../src/modules/beneficiaries/entities/benefit-plan.entity';
import { PartnerEntity } from '../src/modules/partners/entities/partner.entity';
import { PlaceEntity } from '../src/modules/partners/entities/place.entity';
import { PlanEntity } from '../src/modules/partners/entities/plan.entity';
import { PlaceSummaryRepository } from '../src/modules/partners/place-summary.repository';
import { productIdOf } from '../src/modules/partners/product-id';

export interface DemoPlace {
  id: string;
  name: string;
  code: string;
  apiKey: string;
  /** Its number in the Wellhub-compatible access control (`X-Gym-Id`). */
  gymId: number;
  plans: { code: string; name: string; tier: number; productId?: number }[];
}

export interface DemoAccount {
  role: Role;
  email: string;
  name: string;
}

export interface DemoData {
  /** The console accounts, one of each role; all sign in with DEMO_PASSWORD. */
  accounts: DemoAccount[];
  partnerName: string;
  partnerApiKey: string;
  places: DemoPlace[];
  beneficiaries: {
    cpf: string;
    code: string;
    name: string;
    benefitPlan: string;
    active: boolean;
    /** 13 digits: `gympass_id` of the Wellhub-compatible access control. */
    memberNumber?: string;
  }[];
}

const PARTNER_NAME = 'Demo Fitness';
/** The password of every demo account (set when the account is created; a later run keeps what is there). */
export const DEMO_PASSWORD = 'demo-console-password';
const ACCOUNTS: DemoAccount[] = [
  { role: 'operator', email: 'operator@demo.example', name: 'Olivia Operadora' },
  { role: 'support', email: 'support@demo.example', name: 'Sérgio Suporte' },
  { role: 'gym', email: 'gym@demo.example', name: 'Gabriela (Demo Fitness Pinheiros)' },
];
const PLACES = [
  {
    id: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e61',
    name: 'Demo Fitness Paulista',
    code: 'DEMOPAUL',
    plans: [
      { code: 'DPBASIC1', name: 'Musculação', tier: 1 },
      { code: 'DPPREM03', name: 'Premium (piscina e aulas)', tier: 3 },
    ],
  },
  {
    id: '5b1f3c2e-8d4a-4c6b-9e1f-0a2b3c4d5e62',
    name: 'Demo Fitness Pinheiros',
    code: 'DEMOPINH',
    plans: [{ code: 'DPINH002', name: 'Completo', tier: 2 }],
  },
];
const BENEFIT_PLANS = [
  { code: 'BASIC', name: 'Basic', tier: 1, monthlyVisitLimit: 8, mealPlan: false, appointment: false },
  { code: 'SILVER', name: 'Silver', tier: 2, monthlyVisitLimit: 12, mealPlan: true, appointment: false },
  { code: 'GOLD', name: 'Gold', tier: 3, monthlyVisitLimit: null, mealPlan: true, appointment: true },
];
const FIRST_NAMES = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Felipe', 'Gabriela', 'Henrique', 'Isabela'];
const LAST_NAMES = ['Souza', 'Oliveira', 'Santos', 'Lima'];
const BENEFICIARY_COUNT = 36;
/** The one inactive beneficiary, to show `inactive_employee`. */
const INACTIVE_INDEX = 35;

async function upsertPartner(
  manager: EntityManager,
  vault: KeyVault,
): Promise<{ partner: PartnerEntity; key: string }> {
  const repository = manager.getRepository(PartnerEntity);
  const existing = await repository.findOne({ where: { name: PARTNER_NAME } });
  if (existing) return { partner: existing, key: vault.open(existing.apiKeyCiphertext) };
  const key = generateApiKey('ptk');
  const partner = await repository.save({
    name: PARTNER_NAME,
    apiKeyHash: hashKey(key),
    apiKeyCiphertext: vault.seal(key),
  });
  return { partner, key };
}

async function upsertPlace(
  manager: EntityManager,
  vault: KeyVault,
  partner: PartnerEntity,
  spec: (typeof PLACES)[number],
): Promise<DemoPlace> {
  const repository = manager.getRepository(PlaceEntity);
  let place = await repository.findOne({ where: { id: spec.id } });
  let key: string;
  if (place) {
    key = vault.open(place.apiKeyCiphertext);
  } else {
    key = generateApiKey('plk');
    place = await repository.save({
      id: spec.id,
      partnerId: partner.id,
      name: spec.name,
      code: spec.code,
      active: true,
      apiKeyHash: hashKey(key),
      apiKeyCiphertext: vault.seal(key),
    });
  }
  const plans = manager.getRepository(PlanEntity);
  const seeded: DemoPlace['plans'] = [];
  for (const plan of spec.plans) {
    const found = await plans.findOne({ where: { code: plan.code }, withDeleted: true });
    const saved =
      found ?? (await plans.save({ placeId: place.id, externalReference: `ext-${plan.code}`, ...plan }));
    seeded.push({ ...plan, productId: productIdOf(saved.id) });
  }
  await new PlaceSummaryRepository(manager.connection).refresh(place.id, manager);
  return {
    id: place.id,
    name: place.name,
    code: place.code,
    apiKey: key,
    gymId: Number(place.gymId),
    plans: seeded,
  };
}

/** One console account of each role; the gym account reaches the Pinheiros unit only. */
async function upsertAccounts(
  manager: EntityManager,
  gymPlaceId: string,
  passwordHash: string,
): Promise<void> {
  const accounts = manager.getRepository(AccountEntity);
  for (const spec of ACCOUNTS) {
    if (await accounts.findOne({ where: { email: spec.email } })) continue;
    const account = await accounts.save({ ...spec, partnerId: null, passwordHash, active: true });
    if (spec.role === 'gym')
      await manager.getRepository(AccountPlaceEntity).insert({ accountId: account.id, placeId: gymPlaceId });
  }
}

/** Seeds the demo chain and its accounts; running it again changes nothing and returns the same keys. */
export async function seedDemo(dataSource: DataSource, vault: KeyVault): Promise<DemoData> {
  const passwordHash = await new PasswordHasher().hash(DEMO_PASSWORD);
  return dataSource.transaction(async (manager) => {
    const { partner, key } = await upsertPartner(manager, vault);
    const places: DemoPlace[] = [];
    for (const spec of PLACES) places.push(await upsertPlace(manager, vault, partner, spec));
    await upsertAccounts(manager, PLACES[1].id, passwordHash);

    const benefitPlans = manager.getRepository(BenefitPlanEntity);
    const planIds = new Map<string, number>();
    for (const spec of BENEFIT_PLANS) {
      const found = await benefitPlans.findOne({ where: { code: spec.code } });
      planIds.set(spec.code, (found ?? (await benefitPlans.save(spec))).id);
    }

    const beneficiaries: DemoData['beneficiaries'] = [];
    const repository = manager.getRepository(BeneficiaryEntity);
    for (let i = 0; i < BENEFICIARY_COUNT; i++) {
      const cpf = cpfFromBase(123456001 + i * 7);
      const benefitPlan = BENEFIT_PLANS[i % BENEFIT_PLANS.length].code;
      const row = {
        cpf,
        code: `DEMO${String(i + 1).padStart(4, '0')}`,
        name: `${FIRST_NAMES[i % FIRST_NAMES.length]} ${LAST_NAMES[i % LAST_NAMES.length]}`,
        email: `demo${i + 1}@example.com`,
        phone: `+55119${String(80000000 + i)}`,
        birthday: `19${80 + (i % 20)}-0${1 + (i % 9)}-1${i % 10}`,
        active: i !== INACTIVE_INDEX,
        benefitPlanId: planIds.get(benefitPlan) ?? null,
      };
      if (!(await repository.findOne({ where: { cpf } }))) await repository.save(row);
      beneficiaries.push({ cpf, code: row.code, name: row.name, benefitPlan, active: row.active });
    }
    const numbers: { cpf: string; memberNumber: string }[] = await manager.query(
      'SELECT cpf, member_number AS memberNumber FROM beneficiaries WHERE cpf IN (?)',
      [beneficiaries.map((b) => b.cpf)],
    );
    const numberOf = new Map(numbers.map((row) => [row.cpf, String(row.memberNumber)]));
    for (const beneficiary of beneficiaries) beneficiary.memberNumber = numberOf.get(beneficiary.cpf);
    return { accounts: ACCOUNTS, partnerName: partner.name, partnerApiKey: key, places, beneficiaries };
  });
}
