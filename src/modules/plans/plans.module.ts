import { Module } from '@nestjs/common';
import { PartnersModule } from '../partners/partners.module';
import { PlansController } from './plans.controller';
import { PlansService } from './plans.service';

@Module({
  imports: [PartnersModule],
  controllers: [PlansController],
  providers: [PlansService],
})
export class PlansModule {}
