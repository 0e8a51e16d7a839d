import { readFileSync } from 'node:fs';
import { createConnection } from 'mysql2/promise';
import type { Browser } from 'playwright-core';
import { launchBrowser, personWindow } from './support/browser';
import { ConsoleService } from './support/console-service';
import { accountWithPassword, Person, signIn } from './support/people';
import { CPFS, seedWorld, World } from './support/world';

describe('Support looks up a beneficiary who asks how many visits are left this month', () => {
  let service: ConsoleService;
  let browser: Browser;
  let world: World;
  let sara: Person;

  beforeAll(async () => {
    // A one-second recent window, so that the setting can record two visits of one member.
    [service, browser] = await Promise.all([
      ConsoleService.start('lookup', { RECENT_CHECKIN_WINDOW_SECONDS: '1' }),
      launchBrowser(),
    ]);
    world = await seedWorld(service);
    await service.must('POST', '/admin/benefit-plans', {
      code: 'BASIC',
      name: 'Básico',
      tier: 1,
      monthly_visit_limit: 8,
    });
    await service.must('POST', '/admin/beneficiaries', {
      cpf: CPFS[1],
      name: 'Pedro Alves',
      benefit_plan_code: 'BASIC',
    });
    // Pedro went to the gym twice this month.
    for (const place of world.places) {
      expect((await service.checkIn(place.place_api_key, CPFS[1])).status).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 1100));
    }
    sara = await accountWithPassword(service, {
      email: 'sara@plataforma.example',
      name: 'Sara Suporte',
      role: 'support',
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('finds him, reads his use of the monthly limit and his visits, and exports the search as CSV with his CPF masked', async () => {
    const { page } = await personWindow(browser, service.base);
    await signIn(page, service.consoleUrl, sara);
    await page.getByRole('menuitem', { name: 'Beneficiários' }).click();
    await page.getByRole('row').filter({ hasText: 'Joana Lima' }).waitFor();
    await page.getByPlaceholder('CPF, código ou nome').fill('Pedro');
    // The list follows the search once typing pauses.
    await page.getByRole('row').filter({ hasText: 'Joana Lima' }).waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'Pedro Alves' }).waitFor();

    // The export carries the search on screen: Pedro only, his CPF masked as support reads it.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path()) as string, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('cpf,code,name,email,active,benefit_plan_code');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(`^${CPFS[1].slice(0, 3)}\\.\\*\\*\\*\\.\\*\\*\\*-${CPFS[1].slice(9)},`),
    );
    expect(lines[1]).toContain(',Pedro Alves,');

    await page.getByRole('link', { name: 'Pedro Alves' }).click();
    const usage = page.getByRole('region', { name: 'Uso neste mês' });
    await usage.getByText(/^2 de 8 visitas usadas em /).waitFor();
    await usage.getByText('Restam 6 visitas neste mês').waitFor();
    expect(await usage.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    const visits = page.getByRole('region', { name: 'Visitas recentes' });
    for (const place of world.places) await visits.getByRole('link', { name: place.name }).waitFor();
    expect(await page.getByText(CPFS[1]).count()).toBe(0);
  });

  it('brings her back to sign-in with a word on why when her session ends', async () => {
    const { page } = await personWindow(browser, service.base);
    await signIn(page, service.consoleUrl, sara);
    await page.getByRole('heading', { name: 'O que precisa de atenção' }).waitFor();
    // Her session ends on the server (idle for too long, or signed out elsewhere).
    const database = await createConnection(service.databaseUrl);
    await database.query('DELETE FROM sessions');
    await database.end();

    await page.getByRole('menuitem', { name: 'Unidades' }).click();
    await page.getByRole('heading', { name: 'Entrar' }).waitFor();
    await page.getByText('Sua sessão terminou').waitFor();
    await signIn(page, service.consoleUrl, sara);
    await page.getByRole('heading', { name: 'O que precisa de atenção' }).waitFor();
  });
});
