import { Module } from '@nestjs/common';
import { BeneficiariesModule } from '../beneficiaries/beneficiaries.module';
import { AppValidationController } from './app-validation.controller';
import { AppValidationService } from './app-validation.service';

@Module({
  imports: [BeneficiariesModule],
  controllers: [AppValidationController],
  providers: [AppValidationService],
})
export class AppValidationModule {}
