import type { Browser } from 'playwright-core';
import { launchBrowser, personWindow, PHONE } from './support/browser';
import { ConsoleService } from './support/console-service';
import { accountWithPassword, Person, signIn } from './support/people';
import { seedWorld, World } from './support/world';

describe('At the desk, a member’s check-in made in the app shows up by itself', () => {
  let service: ConsoleService;
  let browser: Browser;
  let world: World;
  let desk: Person;

  beforeAll(async () => {
    [service, browser] = await Promise.all([ConsoleService.start('desk'), launchBrowser()]);
    world = await seedWorld(service);
    desk = await accountWithPassword(service, {
      email: 'recepcao@academia.example',
      name: 'Recepção Centro',
      role: 'gym',
      place_ids: [world.places[0].id],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('lists the new pending check-in with the member’s name and token within 10 seconds, without a reload', async () => {
    const [centro] = world.places;
    const { page } = await personWindow(browser, service.base);
    await signIn(page, service.consoleUrl, desk);
    await page
      .getByRole('region', { name: centro.name })
      .getByRole('link', { name: 'Check-ins pelo app' })
      .click();
    await page.getByText('Nenhum check-in pelo app').waitFor();
    let reloads = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloads += 1;
    });

    // Joana checks in at the gym in the platform's app.
    const started = await service.memberCheckIn(world.cpf, centro.code);

    const row = page.getByRole('row').filter({ hasText: 'Joana Lima' });
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getByRole('cell', { name: started.token }).count()).toBe(1);
    expect(await row.getByRole('cell', { name: 'Pendente' }).count()).toBe(1);
    expect(reloads).toBe(0);
  });

  it('reaches every tab of the gym on a phone, the chips there at full strength', async () => {
    const [centro] = world.places;
    const { page } = await personWindow(browser, service.base, { viewport: PHONE });
    await signIn(page, service.consoleUrl, desk);
    await page.getByRole('region', { name: centro.name }).getByRole('link', { name: centro.name }).click();
    for (const [tab, shows] of [
      ['Check-ins pelo app', 'Joana Lima'],
      ['Check-ins recentes', 'Nenhum check-in'],
      ['Planos', 'Musculação'],
      ['Webhook e entregas', 'Webhook de check-in'],
      ['Chaves', 'Chave da unidade'],
    ]) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByText(shows).first().waitFor();
    }
    await page.getByRole('tab', { name: 'Check-ins pelo app' }).click();
    const chip = page.getByText('Pendente', { exact: true }).last();
    await chip.waitFor();
    const opacity = await chip.evaluate((node) => {
      let total = 1;
      for (let at: Element | null = node as Element; at; at = at.parentElement)
        total *= Number(getComputedStyle(at).opacity);
      return total;
    });
    expect(opacity).toBe(1);
  });
});
