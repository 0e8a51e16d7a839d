import { AccountPlaceEntity } from '../../src/modules/accounts/entities/account-place.entity';
import { AccountEntity, Role } from '../../src/modules/accounts/entities/account.entity';
import { PasswordHasher } from '../../src/modules/accounts/password-hasher';
import { TestApp } from '../support/test-app';

export const PASSWORD = 'correct horse battery staple';

let sequence = 0;
const hasher = new PasswordHasher();
let passwordHash: Promise<string> | undefined;

export interface AccountOverrides extends Partial<AccountEntity> {
  placeIds?: string[];
  /** null: no password set yet (an invitation not used). */
  password?: string | null;
}

/** An account with a password (PASSWORD unless given); role operator unless given. */
export async function createAccount(t: TestApp, overrides: AccountOverrides = {}): Promise<AccountEntity> {
  sequence += 1;
  const { placeIds = [], password = PASSWORD, ...fields } = overrides;
  passwordHash ??= hasher.hash(PASSWORD);
  const hash =
    password === null ? null : password === PASSWORD ? await passwordHash : await hasher.hash(password);
  const role: Role = fields.role ?? 'operator';
  const account = await t.dataSource.getRepository(AccountEntity).save({
    email: `${role}${sequence}.${process.pid}@example.com`,
    name: `Person ${sequence}`,
    role,
    partnerId: null,
    passwordHash: hash,
    active: true,
    ...fields,
  });
  if (placeIds.length > 0)
    await t.dataSource
      .getRepository(AccountPlaceEntity)
      .insert(placeIds.map((placeId) => ({ accountId: account.id, placeId })));
  return account;
}
