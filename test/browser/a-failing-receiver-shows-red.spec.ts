import type { Browser, Locator } from 'playwright-core';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import { launchBrowser, personWindow } from './support/browser';
import { ConsoleService } from './support/console-service';
import { accountWithPassword, Person, signIn } from './support/people';
import { seedWorld, World } from './support/world';

/** The filled red of the console's error state (the theme's error colour, #c62828). */
const RED = 'rgb(198, 40, 40)';

const background = (element: Locator) =>
  element.evaluate((node) => getComputedStyle(node as Element).backgroundColor);

describe('A gym’s receiver keeps failing: its manager sees it red first thing, and so does support', () => {
  let service: ConsoleService;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let world: World;
  let marta: Person;
  let sara: Person;

  beforeAll(async () => {
    // One quick retry, then the next one far away: the endpoint stays "failing" while the story runs.
    [service, browser, receiver] = await Promise.all([
      ConsoleService.start('failing', { WEBHOOK_RETRY_SCHEDULE: '0.2,600' }),
      launchBrowser(),
      new WebhookReceiver().start(),
    ]);
    receiver.respond((_request, _index, res) =>
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"maintenance"}'),
    );
    world = await seedWorld(service);
    const [centro] = world.places;
    await service.must('POST', `/admin/places/${centro.id}/webhooks`, {
      webhook_url: receiver.url('/checkins'),
      webhook_type: 'CHECKIN',
    });
    marta = await accountWithPassword(service, {
      email: 'marta@academia.example',
      name: 'Marta Gerente',
      role: 'gym',
      place_ids: [centro.id],
    });
    sara = await accountWithPassword(service, {
      email: 'sara@plataforma.example',
      name: 'Sara Suporte',
      role: 'support',
    });
    // A member checks in; the receiver answers 503 to the event and to its first retry.
    expect((await service.checkIn(centro.place_api_key, world.cpf)).status).toBe(204);
    await eventually(() => receiver.received.length >= 2, 30_000, 'two failed attempts');
    await eventually(
      async () => {
        const { webhooks } = await service.must<{
          webhooks: { delivery_state: { failing_since: string | null } }[];
        }>('GET', `/admin/places/${centro.id}/webhooks`);
        return webhooks[0]?.delivery_state.failing_since !== null;
      },
      30_000,
      'the endpoint failing',
    );
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await service?.stop();
  });

  it('lands the gym manager on her gym’s overview with the webhook red, and its card and log say why', async () => {
    const { page } = await personWindow(browser, service.base);
    await signIn(page, service.consoleUrl, marta);
    await page.getByRole('heading', { name: 'Suas unidades hoje' }).waitFor();
    const gym = page.getByRole('region', { name: 'Academia Centro' });
    const state = gym.getByRole('status', { name: /^Falhando desde / });
    await state.waitFor();
    expect(await state.textContent()).toContain('Última resposta: HTTP 503');
    expect(await background(state)).toBe(RED);

    await gym.getByRole('link', { name: 'Webhook e entregas' }).click();
    const card = page.getByRole('region', { name: 'Webhook de check-in' });
    const cardState = card.getByRole('status', { name: /^Falhando desde / });
    await cardState.waitFor();
    expect(await background(cardState)).toBe(RED);
    const log = page.getByRole('region', { name: 'Registro de entregas' });
    await log.getByRole('row').filter({ hasText: 'Nova tentativa após HTTP 503' }).waitFor();
  });

  it('lists the receiver among those in trouble on support’s overview, linked to its webhook', async () => {
    const { page } = await personWindow(browser, service.base);
    await signIn(page, service.consoleUrl, sara);
    await page.getByRole('heading', { name: 'O que precisa de atenção' }).waitFor();
    const trouble = page.getByRole('region', { name: 'Receptores com problema' });
    const chip = trouble
      .getByRole('listitem')
      .filter({ hasText: 'Academia Centro' })
      .getByText(/^Falhando desde /);
    await chip.waitFor();
    // The chip's text sits on the chip itself, which is filled red.
    expect(await background(chip.locator('..'))).toBe(RED);
    await trouble.getByRole('link', { name: 'Academia Centro' }).click();
    await page
      .getByRole('region', { name: 'Webhook de check-in' })
      .getByRole('status', { name: /^Falhando desde / })
      .waitFor();
  });

  it('shows support, in the queue dashboard alone, the failed run: the gym, its host, the answer, the next attempt', async () => {
    const { page } = await personWindow(browser, service.base);
    await signIn(page, service.consoleUrl, sara);
    await page.goto(`${service.base}/admin/queues/queue/webhook-deliveries?status=failed`);
    const host = new URL(receiver.url()).host;
    const reason = page.getByText(
      new RegExp(`^Academia Centro \\(.+\\) → ${host.replace(/\./g, '\\.')}: attempt \\d of dlv_`),
    );
    await reason.first().waitFor();
    const text = (await reason.first().textContent()) ?? '';
    expect(text).toContain('failed: HTTP 503 ({"error":"maintenance"})');
    expect(text).toMatch(/next attempt at \d{4}-/);
    expect(text).not.toContain('/checkins');
    if (process.env.SCREENSHOTS_DIR)
      await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/queue-dashboard-failed-run.png`, fullPage: true });
  });
});
