import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AuthController } from './auth.controller';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { AdminGuard, ApiKeyGuard, BearerGuard } from './guards';
import { PlaceKeyCache } from './place-key-cache';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { JwtStrategy } from './strategies/jwt.strategy';

@Global()
@Module({
  imports: [PassportModule, JwtModule.register({})],
  controllers: [AuthController],
  providers: [
    AuthRepository,
    AuthService,
    PlaceKeyCache,
    ApiKeyStrategy,
    JwtStrategy,
    ApiKeyGuard,
    BearerGuard,
    AdminGuard,
  ],
  exports: [PlaceKeyCache, ApiKeyGuard, BearerGuard, AdminGuard],
})
export class AuthModule {}
