import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PartnersModule } from '../partners/partners.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AdminGuard, ApiKeyGuard, BearerGuard, SessionGuard } from './guards';
import { PlaceKeyCache } from './place-key-cache';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { JwtStrategy } from './strategies/jwt.strategy';

@Global()
@Module({
  imports: [
    PartnersModule,
    PassportModule,
    JwtModule.register({}),
    // Slows down key guessing on the token exchange; per client address, per process.
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => [
        { name: 'default', ttl: 60_000, limit: config.authRateLimitPerMinute },
      ],
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    PlaceKeyCache,
    ApiKeyStrategy,
    JwtStrategy,
    ApiKeyGuard,
    BearerGuard,
    AdminGuard,
    SessionGuard,
  ],
  exports: [PlaceKeyCache, PartnersModule, ApiKeyGuard, BearerGuard, AdminGuard, SessionGuard],
})
export class AuthModule {}
