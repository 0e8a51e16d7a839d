import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { createValidationPipe } from './common/http/validation.pipe';
import { LoggingModule } from './common/logging/logging.module';
import { MetricsModule } from './common/metrics/metrics.module';
import { CommonModule } from './common/common.module';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { AccountsModule } from './modules/accounts/accounts.module';
import { AppValidationModule } from './modules/app-validation/app-validation.module';
import { AuditModule } from './modules/audit/audit.module';
import { AuthModule } from './modules/auth/auth.module';
import { CheckInModule } from './modules/check-in/check-in.module';
import { ControlPanelModule } from './modules/control-panel/control-panel.module';
import { HealthModule } from './modules/health/health.module';
import { MemberCheckInsModule } from './modules/member-check-ins/member-check-ins.module';
import { AccessControlModule } from './modules/access-control/access-control.module';
import { OverviewModule } from './modules/overview/overview.module';
import { PlansModule } from './modules/plans/plans.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { LowercaseUuidParams } from './common/validation/identifiers';

@Module({
  imports: [
    AppConfigModule,
    LoggingModule,
    DatabaseModule,
    MetricsModule,
    CommonModule,
    AuditModule,
    AccountsModule,
    AuthModule,
    HealthModule,
    ControlPanelModule,
    CheckInModule,
    MemberCheckInsModule,
    AccessControlModule,
    PlansModule,
    AppValidationModule,
    WebhooksModule,
    OverviewModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: LowercaseUuidParams },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
export class AppModule {}
