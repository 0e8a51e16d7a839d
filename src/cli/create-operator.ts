// `npm run account:create-operator -- --email ops@example.com --name "Ops Person"`: creates an operator account
// (the first one, on a new installation) and prints its one-time link to set the password. Run again for an
// existing operator, it prints a new link (the earlier ones stop working): the way back in when no operator can
// sign in.
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { translate } from '../common/i18n/messages';
import { Clock } from '../common/time/clock';
import { loadConfig } from '../config/app-config';
import { buildDataSourceOptions } from '../database/data-source';
import { detectDatabaseServer } from '../database/database-server';
import { Transactions } from '../database/transactions';
import { prepareDatabase } from '../database/prepare-database';
import { AccountsAdminService } from '../modules/accounts/accounts-admin.service';
import { normalizeEmail } from '../modules/accounts/accounts.mappers';
import { AccountsRepository } from '../modules/accounts/accounts.repository';
import { CreateAccountDto } from '../modules/accounts/dto/accounts-admin.dto';
import { LoginThrottle } from '../modules/accounts/login-throttle';
import { PasswordHasher } from '../modules/accounts/password-hasher';
import { PasswordLinksService } from '../modules/accounts/password-links.service';
import { AuditLog } from '../modules/audit/audit-log';
import { PartnersRepository } from '../modules/partners/partners.repository';
import { PlaceSummaryRepository } from '../modules/partners/place-summary.repository';
import { AuditActor } from '../modules/auth/caller';

const USAGE = 'Usage: npm run account:create-operator -- --email <e-mail> --name "<name>"';

/** Audited as the admin token: whoever runs this holds the service's secrets. */
const ACTOR: AuditActor = {
  type: 'admin-token',
  id: null,
  label: 'account:create-operator',
  address: null,
  requestId: null,
};

class UsageError extends Error {}

async function readArguments(): Promise<CreateAccountDto> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, name: { type: 'string' } },
    allowPositionals: false,
  });
  const body = plainToInstance(CreateAccountDto, {
    email: values.email,
    name: values.name,
    role: 'operator',
  });
  const [problem] = await validate(body);
  if (problem) throw new UsageError(`--${problem.property} is missing or not valid.\n${USAGE}`);
  return body;
}

async function main(): Promise<void> {
  const body = await readArguments();
  const config = loadConfig();
  await prepareDatabase(config);
  const server = await detectDatabaseServer(config);
  const dataSource = await new DataSource({
    ...buildDataSourceOptions(config, server),
    extra: { connectionLimit: 2 },
  }).initialize();
  try {
    const clock = new Clock();
    const repository = new AccountsRepository(dataSource);
    const transactions = new Transactions(dataSource, server, config);
    const audit = new AuditLog(clock);
    const throttle = new LoginThrottle(repository, clock, config);
    const links = new PasswordLinksService(
      repository,
      transactions,
      new PasswordHasher(),
      throttle,
      audit,
      clock,
      config,
    );
    const partners = new PartnersRepository(dataSource, new PlaceSummaryRepository(dataSource));
    const accounts = new AccountsAdminService(repository, partners, transactions, links, audit, config);
    const existing = await repository.findAccountByEmail(normalizeEmail(body.email));
    if (existing && existing.role !== 'operator') {
      throw new UsageError(`${existing.email} is a ${existing.role} account, not an operator.`);
    }
    const link = existing
      ? await accounts.passwordLink(ACTOR, String(existing.id))
      : (await accounts.invite(ACTOR, body)).password_link;
    console.log(
      `${existing ? 'Operator exists' : 'Operator created'}: ${normalizeEmail(body.email)}\n` +
        `Set the password within 24 hours, once, at:\n  ${link.url}\n(valid until ${link.expires_at})`,
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  if (error instanceof DomainError)
    console.error(`Cannot create the operator: ${translate('en', error.detail)}`);
  else if (error instanceof UsageError) console.error(error.message);
  else console.error('Cannot create the operator:', error);
  process.exit(1);
});
