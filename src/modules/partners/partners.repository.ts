import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { MessageKey } from '../../common/i18n/messages';
import { escapeLike } from '../../database/like';
import { executePrepared } from '../../database/prepared-statement';
import { insertUnique } from '../../database/unique-insert';
import { PlaceReach, PlaceScope, placeReachCondition } from '../auth/caller';
import { PartnerEntity } from './entities/partner.entity';
import { PlaceEntity } from './entities/place.entity';
import { PlanEntity } from './entities/plan.entity';
import { PlaceSummaryRepository } from './place-summary.repository';

export interface PartnerListRow {
  id: number;
  name: string;
  placesCount: string;
  createdAt: Date;
}

export interface PlaceListRow {
  id: string;
  partnerId: number;
  partnerName: string;
  name: string;
  code: string;
  gymId: number;
  active: number;
  webhookSubscribed: number;
}

export interface PlaceFilter {
  q?: string;
  partnerId?: number;
  scope: PlaceScope;
}

/** A place as the console's overview lists it. */
export interface ReachedPlaceRow {
  id: string;
  name: string;
  code: string;
  active: number | string;
}

/** A place as a member check-in names it. */
export interface PlaceRef {
  id: string;
  name: string;
  code: string;
}

export type NewPartner = Pick<PartnerEntity, 'name' | 'apiKeyHash' | 'apiKeyCiphertext'>;
export type NewPlace = Pick<
  PlaceEntity,
  'id' | 'partnerId' | 'name' | 'code' | 'active' | 'apiKeyHash' | 'apiKeyCiphertext'
>;
export type NewPlan = Pick<PlanEntity, 'placeId' | 'name' | 'code' | 'tier' | 'externalReference'>;

const UUID_LENGTH = 36;
const PARTNER_ID = /^\d{1,10}$/;

/**
 * The partners, places and plans tables: every write to them and the look-ups other modules need (the
 * control panel, accounts, member check-ins, GET /partner/plans). A change to a place's plans goes through
 * PlaceSummaryRepository.change. `in(manager)` hands out a copy bound to one transaction, so that a change and
 * its audit entry commit together.
 */
@Injectable()
export class PartnersRepository {
  /** Where the queries run: the pool, or the transaction of a bound copy. */
  private db: EntityManager;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly placeSummary: PlaceSummaryRepository,
  ) {
    this.db = dataSource.manager;
  }

  /** A copy of this repository whose queries run in the transaction of `manager` (see Transactions.run). */
  in(manager: EntityManager): PartnersRepository {
    const bound = new PartnersRepository(this.dataSource, this.placeSummary);
    bound.db = manager;
    return bound;
  }

  // Partners

  insertPartner(values: NewPartner): Promise<PartnerEntity> {
    return this.db.getRepository(PartnerEntity).save(values);
  }

  /** `id` as it came in the path: anything that is not a partner id finds nothing. */
  findPartner(id: string | number): Promise<PartnerEntity | null> {
    if (!PARTNER_ID.test(String(id))) return Promise.resolve(null);
    return this.db.getRepository(PartnerEntity).findOne({ where: { id: Number(id) } });
  }

  async partnerExists(partnerId: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query('SELECT 1 FROM partners WHERE id = ?', [partnerId]);
    return rows.length > 0;
  }

  placesOfPartner(partnerId: number): Promise<PlaceEntity[]> {
    return this.db
      .getRepository(PlaceEntity)
      .find({ where: { partnerId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async renamePartner(id: number, name: string): Promise<void> {
    await this.db.getRepository(PartnerEntity).update(id, { name });
  }

  /** New key material; the bumped version revokes the bearer tokens issued with the old key. */
  async rotatePartnerKey(id: number, hash: string, ciphertext: string): Promise<void> {
    await this.db.getRepository(PartnerEntity).update(id, {
      apiKeyHash: hash,
      apiKeyCiphertext: ciphertext,
      keyVersion: () => 'key_version + 1',
    });
  }

  // Places

  async insertPlace(values: NewPlace): Promise<PlaceEntity> {
    return this.inserting(PlaceEntity, values.code, () =>
      this.db.getRepository(PlaceEntity).save(this.db.getRepository(PlaceEntity).create(values)),
    );
  }

  findPlace(id: string): Promise<PlaceEntity | null> {
    if (id.length > UUID_LENGTH) return Promise.resolve(null);
    return this.db.getRepository(PlaceEntity).findOne({ where: { id } });
  }

  async updatePlace(id: string, changes: Partial<Pick<PlaceEntity, 'name' | 'active'>>): Promise<void> {
    if (Object.keys(changes).length > 0) await this.db.getRepository(PlaceEntity).update(id, changes);
  }

  async rotatePlaceKey(id: string, hash: string, ciphertext: string): Promise<void> {
    await this.db.getRepository(PlaceEntity).update(id, {
      apiKeyHash: hash,
      apiKeyCiphertext: ciphertext,
      keyVersion: () => 'key_version + 1',
    });
  }

  /** By the gym's code (a prepared statement: each member check-in runs it). */
  async findPlaceByCode(code: string): Promise<PlaceRef | undefined> {
    const rows = await executePrepared<PlaceRef[]>(
      this.dataSource,
      'SELECT id, name, code FROM places WHERE code = ?',
      [code],
    );
    return rows[0];
  }

  /** The ids among `placeIds` that are places. */
  async existingPlaceIds(placeIds: string[]): Promise<Set<string>> {
    if (placeIds.length === 0) return new Set();
    const rows: { id: string }[] = await this.db.query('SELECT id FROM places WHERE id IN (?)', [placeIds]);
    return new Set(rows.map((row) => row.id));
  }

  /** The places reached, by name (used when the reach is a few places: a gym account, or one place asked for). */
  placesReached(reach: PlaceReach, limit: number): Promise<ReachedPlaceRow[]> {
    const [condition, params] = placeReachCondition(reach, 'p.id');
    return this.db.query(
      `SELECT p.id, p.name, p.code, p.active FROM places p WHERE ${condition} ORDER BY p.name, p.id LIMIT ?`,
      [...params, limit],
    );
  }

  // Plans of a place

  /** Inserts the plan and refreshes its place's summary in one transaction. */
  async insertPlan(values: NewPlan): Promise<PlanEntity> {
    return this.inserting(PlanEntity, values.code, () =>
      this.db.transaction((manager) =>
        this.placeSummary.change(values.placeId, manager, () => {
          const plans = manager.getRepository(PlanEntity);
          return plans.save(plans.create(values));
        }),
      ),
    );
  }

  /** Plans not deleted, oldest first; with `code`, only the plan with that code. */
  plansOfPlace(placeId: string, code?: string): Promise<PlanEntity[]> {
    return this.db
      .getRepository(PlanEntity)
      .find({ where: code ? { placeId, code } : { placeId }, order: { id: 'ASC' } });
  }

  findPlanOfPlace(placeId: string, code: string): Promise<PlanEntity | null> {
    return this.db.getRepository(PlanEntity).findOne({ where: { placeId, code } });
  }

  /** Sets `deletedAt`, refreshes the place's summary in the same transaction, answers the plan as stored. */
  async softDeletePlan(plan: Pick<PlanEntity, 'id' | 'placeId'>): Promise<PlanEntity> {
    return this.db.transaction(async (manager) => {
      const plans = manager.getRepository(PlanEntity);
      await this.placeSummary.change(plan.placeId, manager, () => plans.softDelete(plan.id));
      return plans.findOneOrFail({ where: { id: plan.id }, withDeleted: true });
    });
  }

  // Lists for the console

  /** Partners by name, with how many places each has; `q` matches part of the name. */
  async listPartners(q: string | undefined, offset: number, limit: number) {
    const where = q ? 'WHERE pt.name LIKE ?' : '';
    const params = q ? [`%${escapeLike(q)}%`] : [];
    const rows: PartnerListRow[] = await this.db.query(
      `SELECT pt.id, pt.name, pt.created_at AS createdAt,
              (SELECT COUNT(*) FROM places p WHERE p.partner_id = pt.id) AS placesCount
       FROM partners pt ${where} ORDER BY pt.name, pt.id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT COUNT(*) AS total FROM partners pt ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** Places by name within the caller's scope; `q` matches part of the name or of the code. */
  async listPlaces(filter: PlaceFilter, offset: number, limit: number) {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.q) {
      conditions.push('(p.name LIKE ? OR p.code LIKE ?)');
      params.push(`%${escapeLike(filter.q)}%`, `%${escapeLike(filter.q)}%`);
    }
    if (filter.partnerId !== undefined) {
      conditions.push('p.partner_id = ?');
      params.push(filter.partnerId);
    }
    const [reached, reachedParams] = placeReachCondition({ scope: filter.scope }, 'p.id');
    conditions.push(reached);
    params.push(...reachedParams);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const rows: PlaceListRow[] = await this.db.query(
      `SELECT p.id, p.partner_id AS partnerId, pt.name AS partnerName, p.name, p.code, p.gym_id AS gymId, p.active,
              p.check_in_webhook AS webhookSubscribed
       FROM places p JOIN partners pt ON pt.id = p.partner_id ${where}
       ORDER BY p.name, p.id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const [{ total }]: { total: string }[] = await this.db.query(
      `SELECT COUNT(*) AS total FROM places p ${where}`,
      params,
    );
    return { rows, total: Number(total) };
  }

  /** An insert whose unique-index collisions leave as `CodeTakenError` or `invalid_parameter`. */
  private inserting<E extends ObjectLiteral, T>(
    entity: EntityTarget<E>,
    code: string,
    insert: () => Promise<T>,
    messages: Record<string, MessageKey> = {},
  ): Promise<T> {
    return insertUnique(this.db, entity, code, insert, messages);
  }
}
