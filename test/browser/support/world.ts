import type { ConsoleService } from './console-service';

export interface SeededPlace {
  id: string;
  name: string;
  code: string;
  place_api_key: string;
}

export interface World {
  partnerId: number;
  places: SeededPlace[];
  cpf: string;
}

/** Valid CPFs (check digits right), for beneficiaries the stories check in. */
export const CPFS = ['11144477735', '52998224725', '39053344705', '15350946056', '86288366757'];

/**
 * A chain with two gyms, each with one plan, and a beneficiary who may check in at both: the setting
 * every story starts from, made through the admin API as automation would.
 */
export async function seedWorld(
  service: ConsoleService,
  placeNames = ['Academia Centro', 'Academia Norte'],
): Promise<World> {
  const partner = await service.must<{ id: number }>('POST', '/admin/partners', { name: 'Rede Exemplo' });
  const places: SeededPlace[] = [];
  for (const name of placeNames) {
    const place = await service.must<SeededPlace>('POST', '/admin/places', { partner_id: partner.id, name });
    await service.must('POST', `/admin/places/${place.id}/plans`, { name: 'Musculação', tier: 1 });
    places.push(place);
  }
  await service.must('POST', '/admin/benefit-plans', {
    code: 'GOLD',
    name: 'Ouro',
    tier: 3,
    monthly_visit_limit: null,
  });
  await service.must('POST', '/admin/beneficiaries', {
    cpf: CPFS[0],
    name: 'Joana Lima',
    benefit_plan_code: 'GOLD',
  });
  return { partnerId: partner.id, places, cpf: CPFS[0] };
}
