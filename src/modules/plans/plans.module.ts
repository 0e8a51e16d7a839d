import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlaceEntity } from '../partners/entities/place.entity';
import { PlanEntity } from '../partners/entities/plan.entity';
import { PlansController } from './plans.controller';
import { PlansRepository } from './plans.repository';
import { PlansService } from './plans.service';

@Module({
  imports: [TypeOrmModule.forFeature([PlaceEntity, PlanEntity])],
  controllers: [PlansController],
  providers: [PlansRepository, PlansService],
})
export class PlansModule {}
