import type { Browser } from 'playwright-core';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import { launchBrowser, personWindow, readClipboard } from './support/browser';
import { ConsoleService } from './support/console-service';
import { accountWithPassword, Person, signIn } from './support/people';
import { seedWorld, World } from './support/world';

describe('A gym manager, invited by an operator, runs the integration of their gym from the console', () => {
  let service: ConsoleService;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let world: World;
  let operator: Person;

  beforeAll(async () => {
    [service, browser, receiver] = await Promise.all([
      ConsoleService.start('manager'),
      launchBrowser(),
      new WebhookReceiver().start(),
    ]);
    world = await seedWorld(service);
    operator = await accountWithPassword(service, {
      email: 'olga@plataforma.example',
      name: 'Olga Operadora',
      role: 'operator',
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await service?.stop();
  });

  it('invites, sets a password, copies the key, subscribes and tests a webhook, then rotates the key', async () => {
    const [centro] = world.places;

    // Olga, an operator, invites Marta to manage Academia Centro and gets the one-time link.
    const olga = await personWindow(browser, service.base);
    await signIn(olga.page, service.consoleUrl, operator);
    await olga.page.getByRole('menuitem', { name: 'Contas' }).click();
    await olga.page.getByRole('link', { name: 'Convidar' }).click();
    await olga.page.getByLabel('Nome').fill('Marta Gerente');
    await olga.page.getByLabel('E-mail').fill('marta@academia.example');
    await olga.page.getByRole('radio', { name: 'Só as unidades escolhidas' }).check();
    await olga.page.getByRole('combobox', { name: 'Unidades' }).fill('Centro');
    await olga.page.getByRole('option', { name: 'Academia Centro' }).click();
    await olga.page.getByRole('button', { name: 'Salvar' }).click();
    const invitation = olga.page.getByRole('dialog', { name: 'Link de convite' });
    const link = (await invitation.getByRole('status', { name: 'Link de convite' }).textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${service.base}/console/#/set-password/`));

    // Marta opens the link in her own browser, chooses a password and signs in with it.
    const marta = await personWindow(browser, service.base);
    await marta.page.goto(link);
    await marta.page.getByRole('heading', { name: 'Boas-vindas' }).waitFor();
    await marta.page.getByLabel('Nova senha').fill('uma senha longa da Marta');
    await marta.page.getByLabel('Repita a senha').fill('uma senha longa da Marta');
    await marta.page.getByRole('button', { name: 'Definir senha' }).click();
    await marta.page.getByText('Sua senha foi definida. Entre com ela.').waitFor();
    expect(await marta.page.getByLabel('E-mail').inputValue()).toBe('marta@academia.example');
    await marta.page.getByLabel('Senha').fill('uma senha longa da Marta');
    await marta.page.getByRole('button', { name: 'Entrar' }).click();

    // She lands on her gym's overview, opens the gym and copies its key.
    await marta.page.getByRole('heading', { name: 'Suas unidades hoje' }).waitFor();
    await marta.page
      .getByRole('region', { name: 'Academia Centro' })
      .getByRole('link', { name: 'Academia Centro' })
      .click();
    const placeKey = marta.page.getByRole('region', { name: 'Chave da unidade' });
    expect(await placeKey.getByRole('status').textContent()).not.toContain(centro.place_api_key);
    await placeKey.getByRole('button', { name: 'Copiar' }).click();
    await marta.page.getByText('Chave da unidade copiada').waitFor();
    const copied = await readClipboard(marta.page);
    expect(copied).toBe(centro.place_api_key);

    // She subscribes the gym's receiver, keeps the signing secret and sends a test event.
    await marta.page.getByRole('tab', { name: 'Webhook e entregas' }).click();
    await marta.page.getByLabel('URL do receptor').fill(receiver.url('/checkins'));
    await marta.page.getByRole('button', { name: 'Inscrever' }).click();
    expect(await marta.page.getByRole('status', { name: 'Segredo de assinatura' }).textContent()).toMatch(
      /^whsec_/,
    );
    await marta.page.getByRole('button', { name: 'Enviar evento de teste' }).click();

    // The test event arrives at the receiver and the delivery log shows it delivered.
    await eventually(() => receiver.received.length > 0, 30_000);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: 'TEST' });
    const log = marta.page.getByRole('region', { name: 'Registro de entregas' });
    await log
      .getByRole('row')
      .filter({ hasText: 'Evento de teste' })
      .filter({ hasText: 'Entregue' })
      .waitFor({ timeout: 30_000 });

    // She rotates the key after reading what stops working; the old key is refused from then on. Enter
    // right after the question opens does not rotate it: the focus starts on Cancelar.
    await marta.page.getByRole('tab', { name: 'Chaves' }).click();
    await placeKey.getByRole('button', { name: 'Trocar chave' }).click();
    const confirmation = marta.page.getByRole('dialog', { name: 'Trocar a chave da unidade?' });
    await confirmation.getByRole('button', { name: 'Cancelar' }).waitFor();
    await marta.page.waitForFunction(() => document.activeElement?.textContent === 'Cancelar');
    await marta.page.keyboard.press('Enter');
    await confirmation.waitFor({ state: 'hidden' });
    const validate = await service.call(
      'POST',
      '/v1/track_usages/validate',
      { type: 'cpf', identifier: world.cpf },
      { 'x-api-key': copied },
    );
    expect(validate.status).toBe(204);
    await placeKey.getByRole('button', { name: 'Trocar chave' }).click();
    expect(await confirmation.textContent()).toContain('para de funcionar na hora');
    await confirmation.getByRole('button', { name: 'Trocar agora' }).click();
    await placeKey.getByText('Esta é a nova chave').waitFor();
    const newKey = (await placeKey.getByRole('status').textContent()) ?? '';
    expect(newKey).toMatch(/^plk_/);
    expect(newKey).not.toBe(copied);

    const withOldKey = await service.checkIn(copied, world.cpf);
    expect({
      status: withOldKey.status,
      label: (withOldKey.body as { errors: { label: string }[] }).errors[0].label,
    }).toEqual({
      status: 401,
      label: 'invalid_api_key',
    });
    expect((await service.checkIn(newKey, world.cpf)).status).toBe(204);
  });
});
