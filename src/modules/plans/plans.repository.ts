import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PlaceEntity } from '../partners/entities/place.entity';
import { PlanEntity } from '../partners/entities/plan.entity';

@Injectable()
export class PlansRepository {
  constructor(
    @InjectRepository(PlaceEntity) private readonly places: Repository<PlaceEntity>,
    @InjectRepository(PlanEntity) private readonly plans: Repository<PlanEntity>,
  ) {}

  findPlace(placeId: string): Promise<PlaceEntity | null> {
    return this.places.findOne({ where: { id: placeId } });
  }

  /** Active (not soft-deleted) plans of a place, optionally only those with a code. */
  findActivePlans(placeId: string, code?: string): Promise<PlanEntity[]> {
    return this.plans.find({ where: code ? { placeId, code } : { placeId }, order: { id: 'ASC' } });
  }
}
