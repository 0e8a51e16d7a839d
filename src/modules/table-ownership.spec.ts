import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Each table has one owning module: the one whose `entities/` folder declares it. Only the owner's files write
 * the table, read it as a query's own table (`FROM <table>`) or use its entity with TypeORM; other modules call
 * the owner's exported repository or service, and may join the table into their own queries (a name, a filter).
 * SHARED below lists the accesses outside the owner that stay, each for its reason: adding one is a decision
 * made in review, not by habit.
 */
const SHARED: { access: string; why: string }[] = [
  {
    access: 'modules/access-control/access-control.repository.ts reads beneficiaries',
    why: 'the Wellhub-compatible routes find a member by member number',
  },
  {
    access: 'modules/access-control/access-control.repository.ts reads partners',
    why: "a partner's key covers its gyms (AccessGuard's read, or the validate's one statement)",
  },
  {
    access: 'modules/access-control/access-control.repository.ts reads places',
    why: "a gym by gym_id, with whether the key is its place's (AccessGuard's read, or the validate's one statement)",
  },
  {
    access: 'modules/access-control/access-control.repository.ts reads plans',
    why: "the sandbox's product_id names a plan of the gym",
  },
  {
    access: 'modules/access-control/access-control.repository.ts reads webhook_deliveries',
    why: "the sandbox answers the checkin event's body as stored",
  },
  {
    access: 'modules/access-control/access-control.repository.ts reads webhook_subscriptions',
    why: "the sandbox's body says additional_data as the subscription does",
  },
  {
    access: 'modules/eligibility/eligibility.repository.ts reads plans',
    why: "the Wellhub-format checkin event names the check-in's plan, in the facts query",
  },
  {
    access: 'modules/eligibility/eligibility.repository.ts writes beneficiaries',
    why: "the admission's lock and version bump of the beneficiary's row, in the check-in path's batch",
  },
  {
    access: 'modules/eligibility/eligibility.repository.ts reads beneficiaries',
    why: "the beneficiary's lock (FOR UPDATE), sent with the facts in one round trip",
  },
  {
    access: 'modules/eligibility/eligibility.repository.ts reads places',
    why: 'the check-in facts: place, beneficiary and visits in one statement on the hot path',
  },
  {
    access: 'modules/beneficiaries/beneficiary-profiles.repository.ts reads places',
    why: "the place's key version read with the profile in one statement, as the check-in facts are",
  },
  {
    access: 'modules/auth/caller.ts reads places',
    why: "the access scope's SQL condition (a partner's places), joined into each module's list queries",
  },
  {
    access: 'modules/overview/overview.repository.ts reads places',
    why: "visits per place reached, through each place's (place_id, created_at) index",
  },
  {
    access: 'modules/member-check-ins/member-check-ins.repository.ts reads places',
    why: "the overview's member check-in counts per scope, driven by the places reached",
  },
  {
    access: 'modules/webhooks/delivery-health.repository.ts reads places',
    why: 'delivery health per place reached (webhooks delivery internals: left as they are)',
  },
  {
    access: 'modules/webhooks/webhooks.repository.ts reads places',
    why: "the outbox's subscriber facts (place and beneficiary) read in one statement",
  },
  {
    access: 'modules/partners/place-summary.repository.ts reads webhook_subscriptions',
    why: "the place summary's refresh recomputes its columns from the subscriptions it summarizes",
  },
];

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** `modules/<name>` for a feature module's file, else the folder under src (`database`, `cli`, ...). */
function moduleOf(file: string): string {
  const [first, second] = relative(SRC, file).split('/');
  return first === 'modules' ? `modules/${second}` : first;
}

const files = sources(SRC).map((path) => ({
  path,
  name: relative(SRC, path),
  module: moduleOf(path),
  text: readFileSync(path, 'utf8'),
}));

/** table → owning module, entity class → owning module, from the entities' own declarations. */
const tableOwner = new Map<string, string>();
const entityOwner = new Map<string, string>();
for (const file of files.filter((f) => f.name.endsWith('.entity.ts'))) {
  const table = /@Entity\('([a-z_]+)'\)/.exec(file.text)?.[1];
  const entity = /export class (\w+Entity)\b/.exec(file.text)?.[1];
  if (table) tableOwner.set(table, file.module);
  if (entity) entityOwner.set(entity, file.module);
}

const SQL =
  /\b(FROM|INSERT(?:\s+IGNORE)?\s+INTO|(?<!KEY\s+)UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+`?([a-z_]+)`?/g;
const ENTITY_USE =
  /(?:getRepository|InjectRepository|forFeature|\.(?:save|insert|update|delete|softDelete|upsert|remove|find\w*|count|exists))\(\s*\[?\s*(\w+Entity)\b/g;

/** Every access to a table outside its owner: `<file> reads|writes|uses <table or entity>`. */
function accessesOutsideOwners(): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const [, verb, table] of file.text.matchAll(SQL)) {
      const owner = tableOwner.get(table);
      if (owner === undefined || owner === file.module) continue;
      found.add(`${file.name} ${verb === 'FROM' ? 'reads' : 'writes'} ${table}`);
    }
    for (const [, entity] of file.text.matchAll(ENTITY_USE)) {
      const owner = entityOwner.get(entity);
      if (owner !== undefined && owner !== file.module) found.add(`${file.name} uses ${entity}`);
    }
  }
  return [...found].sort();
}

describe('table ownership', () => {
  it('places, partners and plans belong to partners; beneficiaries to beneficiaries; visits to eligibility', () => {
    expect(
      Object.fromEntries(
        ['places', 'partners', 'plans', 'beneficiaries', 'visits'].map((t) => [t, tableOwner.get(t)]),
      ),
    ).toEqual({
      places: 'modules/partners',
      partners: 'modules/partners',
      plans: 'modules/partners',
      beneficiaries: 'modules/beneficiaries',
      visits: 'modules/eligibility',
    });
  });

  it('no module writes, reads or uses through TypeORM a table of another, beyond the shared accesses listed', () => {
    expect(accessesOutsideOwners()).toEqual(SHARED.map((shared) => shared.access).sort());
  });

  it('finds an access outside the owner (the check itself works)', () => {
    const sample = "await manager.query('UPDATE places SET name = ? WHERE id = ?')";
    const [, verb, table] = [...sample.matchAll(SQL)][0];
    expect([verb, tableOwner.get(table)]).toEqual(['UPDATE', 'modules/partners']);
    expect([...'ON DUPLICATE KEY UPDATE code = VALUES(code)'.matchAll(SQL)]).toEqual([]);
    expect([...'this.db.getRepository(PlaceEntity).update(id, changes)'.matchAll(ENTITY_USE)][0][1]).toBe(
      'PlaceEntity',
    );
  });

  it("member check-ins use eligibility, never check-in's files; eligibility uses neither", () => {
    const reaching = (module: string, into: string[]) =>
      files
        .filter((file) => file.module === `modules/${module}`)
        .filter((file) => into.some((other) => new RegExp(`from '(\\.\\./)+${other}/`).test(file.text)))
        .map((file) => file.name);
    expect(reaching('member-check-ins', ['check-in'])).toEqual([]);
    expect(reaching('eligibility', ['check-in', 'member-check-ins'])).toEqual([]);
  });
});
