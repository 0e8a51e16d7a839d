import { Global, Module } from '@nestjs/common';
import { AccountsAdminController } from './accounts-admin.controller';
import { AccountsAdminService } from './accounts-admin.service';
import { AccountsRepository } from './accounts.repository';
import { ConsolePermissionsReader } from './console-permissions';
import { PartnersModule } from '../partners/partners.module';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { PasswordLinksService } from './password-links.service';
import { SessionAuthenticator } from './session-authenticator';
import { SessionController } from './session.controller';
import { SessionService } from './session.service';

/** Console accounts: sign-in, sessions, password links; and the accounts admin routes for operators. */
@Global()
@Module({
  imports: [PartnersModule],
  controllers: [SessionController, AccountsAdminController],
  providers: [
    AccountsRepository,
    PasswordHasher,
    LoginThrottle,
    SessionService,
    SessionAuthenticator,
    PasswordLinksService,
    AccountsAdminService,
    ConsolePermissionsReader,
  ],
  exports: [SessionAuthenticator, AccountsRepository, PasswordLinksService],
})
export class AccountsModule {}
