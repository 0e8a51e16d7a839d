import request from 'supertest';
import { createBeneficiary, createBenefitPlan } from './factories/beneficiaries.factory';
import { createGym } from './factories/partners.factory';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

/**
 * Identifiers are compared byte for byte (IDENTIFIER, utf8mb4_bin): what the migrations made is what the
 * entities declare (TypeORM's drift check does not compare collations), the columns of one kind of id share
 * their collation (so a join of two keeps its index), and an id sent in capitals still finds its row.
 */
describe('identifier collation (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => truncateAll(t.dataSource));
  afterAll(() => t.close());

  async function collationOf(table: string, column: string): Promise<string | null> {
    const [row] = (await t.dataSource.query(
      `SELECT COLLATION_NAME AS collation FROM information_schema.COLUMNS
       WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?`,
      [table, column],
    )) as { collation: string | null }[];
    return row?.collation ?? null;
  }

  it('gives every column the collation its entity declares', async () => {
    const declared = t.dataSource.entityMetadatas.flatMap((entity) =>
      entity.columns
        .filter((column) => column.collation)
        .map((column) => ({
          table: entity.tableName,
          column: column.databaseName,
          collation: column.collation,
        })),
    );
    expect(declared.length).toBeGreaterThanOrEqual(25);
    for (const { table, column, collation } of declared) {
      expect({ table, column, collation: await collationOf(table, column) }).toEqual({
        table,
        column,
        collation,
      });
    }
  });

  it('keeps every place id and subscription id in one collation, so their joins use the index', async () => {
    const columns = (await t.dataSource.query(
      `SELECT TABLE_NAME AS tableName, COLUMN_NAME AS columnName, COLLATION_NAME AS collation
       FROM information_schema.COLUMNS
       WHERE TABLE_SCHEMA = DATABASE() AND (COLUMN_NAME IN ('place_id', 'subscription_id', 'check_in_subscription_id')
         OR (TABLE_NAME IN ('places', 'webhook_subscriptions') AND COLUMN_NAME = 'id'))`,
    )) as { tableName: string; columnName: string; collation: string }[];
    expect(columns.length).toBeGreaterThanOrEqual(14);
    for (const column of columns) expect(column).toEqual({ ...column, collation: 'utf8mb4_bin' });

    const plan = (await t.dataSource.query(
      `EXPLAIN SELECT v.id, p.name FROM visits v LEFT JOIN places p ON p.id = v.place_id WHERE v.beneficiary_id = 1`,
    )) as { table: string; type: string; key: string | null }[];
    expect(plan.find((step) => step.table === 'p')).toMatchObject({ type: 'eq_ref', key: 'PRIMARY' });
  });

  it('finds a place, its webhooks, visits and overview by an id sent in capitals', async () => {
    const { place, placeApiKey } = await createGym(t);
    const beneficiary = await createBeneficiary(t.dataSource, await createBenefitPlan(t.dataSource));
    await request(t.http)
      .post('/v1/track_usages')
      .set('x-api-key', placeApiKey)
      .send({ type: 'cpf', identifier: beneficiary.cpf, service_provider_code: place.code })
      .expect(204);
    const admin = `Bearer ${t.config.adminApiToken}`;
    const get = (path: string, query: Record<string, string> = {}) =>
      request(t.http).get(path).query(query).set('Authorization', admin).expect(200);
    const shouted = place.id.toUpperCase();

    expect((await get(`/admin/places/${shouted}`)).body.id).toBe(place.id);
    await get(`/admin/places/${shouted}/webhooks`);
    const visits = (await get('/admin/visits', { place_id: shouted })).body;
    expect(visits.data.map((visit: { place_id: string }) => visit.place_id)).toEqual([place.id]);
    const overview = (await get('/admin/overview', { place_id: shouted })).body;
    expect(overview.places.map((one: { id: string }) => one.id)).toEqual([place.id]);
    // An id that is no UUID is left as sent: it finds nothing, in any characters.
    await request(t.http).get('/admin/places/Ação').set('Authorization', admin).expect(404);
  });
});
