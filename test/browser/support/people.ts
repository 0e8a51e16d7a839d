import type { Page } from 'playwright-core';
import type { ConsoleService } from './console-service';

export interface Person {
  email: string;
  password: string;
  name: string;
}

export interface AccountFields {
  email: string;
  name: string;
  role: 'operator' | 'support' | 'gym';
  partner_id?: number;
  place_ids?: string[];
}

/** The token at the end of a password link (<base>/console/#/set-password/<token>). */
export function linkToken(url: string): string {
  const match = /#\/set-password\/([^/?#]+)$/.exec(url);
  if (!match) throw new Error(`not a password link: ${url}`);
  return match[1];
}

/** An account invited and given its password through the service's routes (the setting, not the story). */
export async function accountWithPassword(service: ConsoleService, fields: AccountFields): Promise<Person> {
  const invited = await service.must<{ password_link: { url: string } }>('POST', '/admin/accounts', fields);
  const password = `${fields.role}-password-for-tests`;
  const answer = await service.call(
    'POST',
    `/account/password-links/${linkToken(invited.password_link.url)}`,
    {
      password,
    },
  );
  if (answer.status !== 204) throw new Error(`set password answered ${answer.status}`);
  return { email: fields.email, password, name: fields.name };
}

/** Signs in through the console's own sign-in page, in Portuguese. */
export async function signIn(page: Page, consoleUrl: string, person: Person): Promise<void> {
  await page.goto(consoleUrl);
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Senha').fill(person.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('banner').waitFor();
}
