import type { Browser } from 'playwright-core';
import { launchBrowser, personWindow } from './support/browser';
import { ConsoleService } from './support/console-service';
import { accountWithPassword, Person, signIn } from './support/people';
import { seedWorld, World } from './support/world';

describe('A gym account reaches its own places and nothing of another gym', () => {
  let service: ConsoleService;
  let browser: Browser;
  let world: World;
  let staff: Person;

  beforeAll(async () => {
    [service, browser] = await Promise.all([ConsoleService.start('scope'), launchBrowser()]);
    world = await seedWorld(service);
    staff = await accountWithPassword(service, {
      email: 'caio@centro.example',
      name: 'Caio Recepção',
      role: 'gym',
      place_ids: [world.places[0].id],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('lists only its gym, and another gym’s page opened by URL shows nothing of it', async () => {
    const [centro, norte] = world.places;
    const caio = await personWindow(browser, service.base);

    // Caio signs in and opens his gym with the keyboard alone.
    await caio.page.goto(service.consoleUrl);
    await caio.page.getByLabel('E-mail').waitFor();
    await caio.page.keyboard.type(staff.email);
    await caio.page.keyboard.press('Tab');
    await caio.page.keyboard.type(staff.password);
    await caio.page.keyboard.press('Enter');
    const own = caio.page.getByRole('link', { name: centro.name });
    await own.waitFor();
    expect(await caio.page.getByRole('cell', { name: norte.name }).count()).toBe(0);
    await own.focus();
    await caio.page.keyboard.press('Enter');
    await caio.page.getByRole('region', { name: 'Chave da unidade' }).waitFor();

    for (const tab of ['', '/webhook', '/plans', '/app-check-ins']) {
      await caio.page.goto(`${service.consoleUrl}#/places/${norte.id}/show${tab}`);
      await caio.page.getByText('Nada encontrado aqui (Unidade).', { exact: false }).waitFor();
      const page = (await caio.page.textContent('body')) ?? '';
      expect(page).not.toContain(norte.name);
      expect(page).not.toContain(norte.code);
      expect(page).not.toContain(norte.place_api_key);
    }
  });

  it('sees the app check-ins of its gym with the token the desk confirms, and filters them by status', async () => {
    const [centro, norte] = world.places;
    const started = await service.memberCheckIn(world.cpf, centro.code);
    const caio = await personWindow(browser, service.base);
    await signIn(caio.page, service.consoleUrl, staff);
    await caio.page.goto(`${service.consoleUrl}#/places/${centro.id}/show/app-check-ins`);
    await caio.page.getByText(started.token, { exact: true }).waitFor();
    await caio.page.getByRole('cell', { name: 'Pendente' }).waitFor();

    // Confirmed at the desk: it leaves the pending list and shows as confirmed, without its token.
    expect(
      (
        await service.call('POST', '/v1/track_usages', tokenRegister(started.token, centro.code), {
          'x-api-key': centro.place_api_key,
        })
      ).status,
    ).toBe(204);
    await caio.page.getByRole('button', { name: 'Confirmado' }).click();
    await caio.page.getByRole('cell', { name: 'Confirmado' }).waitFor();
    expect(await caio.page.getByText(started.token, { exact: true }).count()).toBe(0);
    await caio.page.getByRole('button', { name: 'Pendente' }).click();
    await caio.page.getByText('Nenhum check-in pelo app').waitFor();

    await caio.page.goto(`${service.consoleUrl}#/places/${norte.id}/show/app-check-ins`);
    await caio.page.getByText('Nada encontrado aqui (Unidade).', { exact: false }).waitFor();
  });
});

function tokenRegister(token: string, placeCode: string) {
  return {
    data: {
      type: 'track_usage',
      attributes: { type: 'token', identifier: token, service_provider_code: placeCode },
    },
  };
}
