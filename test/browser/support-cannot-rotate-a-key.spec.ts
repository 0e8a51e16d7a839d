/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { launchBrowser, personWindow } from './support/browser';
import { ConsoleService } from './support/console-service';
import { accountWithPassword, Person, signIn } from './support/people';
import { seedWorld, World } from './support/world';

describe('Support staff read a gym’s integration but cannot change its keys', () => {
  let service: ConsoleService;
  let browser: Browser;
  let world: World;
  let support: Person;

  beforeAll(async () => {
    [service, browser] = await Promise.all([ConsoleService.start('support'), launchBrowser()]);
    world = await seedWorld(service);
    support = await accountWithPassword(service, {
      email: 'sara@plataforma.example',
      name: 'Sara Suporte',
      role: 'support',
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('sees the key masked, with no way to reveal or rotate it, and a forged rotation is refused', async () => {
    const [centro] = world.places;
    const sara = await personWindow(browser, service.base);
    await signIn(sara.page, service.consoleUrl, support);

    await sara.page.getByRole('menuitem', { name: 'Unidades' }).click();
    await sara.page.getByRole('cell', { name: 'Academia Centro' }).click();
    const placeKey = sara.page.getByRole('region', { name: 'Chave da unidade' });
    await placeKey.getByText('Sua conta vê esta chave mascarada.').waitFor();
    expect(await placeKey.getByRole('status').textContent()).not.toContain(centro.place_api_key);
    expect(await placeKey.getByRole('button', { name: 'Trocar chave' }).count()).toBe(0);
    expect(await placeKey.getByRole('button', { name: 'Mostrar' }).count()).toBe(0);

    // Even a request made by hand from her signed-in page, CSRF token and all, is refused.
    const forged = await sara.page.evaluate(async (placeId) => {
      const session = (await (await fetch('/account/session')).json()) as { csrf_token: string };
      const answer = await fetch(`/admin/places/${placeId}/api-key`, {
        method: 'POST',
        headers: { 'X-CSRF-Token': session.csrf_token },
      });
      const body = (await answer.json()) as { errors?: { label: string }[] };
      return { status: answer.status, label: body.errors?.[0]?.label };
    }, centro.id);
    expect(forged).toEqual({ status: 403, label: 'forbidden' });
    expect((await service.checkIn(centro.place_api_key, world.cpf)).status).toBe(204);
  });
});
