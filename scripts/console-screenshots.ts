// `npm run console:screenshots`: starts the service on a scratch database, fills it through the API, and takes
// a screenshot of every console screen, per role, at 1280x800 and at a phone's width (390x844), into
// .screenshots/console/ (git-ignored). Re-run it after changing a screen and look at every picture.
import { createServer, Server } from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { createConnection } from 'mysql2/promise';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, personWindow, PHONE } from '../test/browser/support/browser';
import { ensureConsoleBuilt } from '../test/browser/support/build-console';
import { ConsoleService } from '../test/browser/support/console-service';
import { accountWithPassword, Person, signIn } from '../test/browser/support/people';
import { CPFS } from '../test/browser/support/world';

const OUT = join(__dirname, '..', '.screenshots', 'console');
const DATABASE = 'gym_console_screenshots';
const QUEUE_PREFIX = 'gym_console_screenshots';

interface Seeded {
  operator: Person;
  support: Person;
  gym: Person;
  chain: Person;
  beneficiaryCode: string;
  places: { id: string; name: string }[];
  partnerId: number;
  failedDeliveryId: string;
  accountId: string;
}

function receiver(status: number, body: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/webhooks/checkins` });
    }),
  );
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function seed(service: ConsoleService, okUrl: string, failingUrl: string): Promise<Seeded> {
  const rede = await service.must<{ id: number }>('POST', '/admin/partners', {
    name: 'Rede Exemplo Fitness',
  });
  const zen = await service.must<{ id: number }>('POST', '/admin/partners', { name: 'Studio Zen' });
  const places: { id: string; name: string; code: string; place_api_key: string }[] = [];
  for (const [partner, name] of [
    [rede.id, 'Exemplo Fitness Paulista'],
    [rede.id, 'Exemplo Fitness Pinheiros'],
    [zen.id, 'Studio Zen Moema'],
  ] as const) {
    places.push(await service.must('POST', '/admin/places', { partner_id: partner, name }));
  }
  await service.must('POST', `/admin/places/${places[0].id}/plans`, {
    name: 'Musculação',
    tier: 1,
    externalReference: 'ERP-MUSC',
  });
  await service.must('POST', `/admin/places/${places[0].id}/plans`, {
    name: 'Premium (piscina e aulas)',
    tier: 3,
  });
  await service.must('POST', `/admin/places/${places[1].id}/plans`, { name: 'Livre', tier: 1 });
  await service.must('POST', `/admin/places/${places[2].id}/plans`, { name: 'Yoga', tier: 2 });
  for (const [code, name, tier, limit] of [
    ['BASIC', 'Básico', 1, 8],
    ['SILVER', 'Prata', 2, 12],
    ['GOLD', 'Ouro', 3, null],
  ] as const) {
    await service.must('POST', '/admin/benefit-plans', {
      code,
      name,
      tier,
      monthly_visit_limit: limit,
      meal_plan: code === 'GOLD',
    });
  }
  const names = ['Joana Lima', 'Pedro Alves', 'Ana Souza', 'Carlos Pereira', 'Beatriz Rocha'];
  await service.must('POST', '/admin/beneficiaries/bulk', {
    beneficiaries: CPFS.map((cpf, index) => ({
      cpf,
      name: names[index],
      email: `${names[index].split(' ')[0].toLowerCase()}@example.com`,
      benefit_plan_code: index % 2 ? 'SILVER' : 'GOLD',
    })),
  });

  // Paulista delivers to a receiver that answers 200; Pinheiros to one that answers 500, until it fails.
  const partnerKey = (await service.must<{ partner_api_key: string }>('GET', `/admin/partners/${rede.id}`))
    .partner_api_key;
  for (const [place, url] of [
    [places[0], okUrl],
    [places[1], failingUrl],
  ] as const) {
    const auth = await service.must<{ token: string }>('POST', '/partner/auth', {
      place_api_key: place.place_api_key,
      partner_api_key: partnerKey,
    });
    const created = await service.call(
      'POST',
      '/partner/webhook/create',
      { webhook_url: url, webhook_type: 'CHECKIN' },
      {
        authorization: `Bearer ${auth.token}`,
      },
    );
    if (created.status !== 201) throw new Error(`webhook create answered ${created.status}`);
  }
  const paulistaPlan = (
    await service.must<{ plans: { code: string }[] }>('GET', `/admin/places/${places[0].id}`)
  ).plans[0].code;
  for (const cpf of CPFS.slice(0, 3)) {
    await service.call(
      'POST',
      '/v1/track_usages',
      {
        data: {
          type: 'track_usage',
          attributes: { type: 'cpf', identifier: cpf, service_provider_plan_code: paulistaPlan },
        },
      },
      { 'x-api-key': places[0].place_api_key },
    );
  }
  await service.checkIn(places[1].place_api_key, CPFS[3]);
  // A member started a check-in at Paulista in the app: pending, with the token the desk confirms.
  await service.memberCheckIn(CPFS[4], places[0].code, paulistaPlan);

  const failedDeliveryId = await until('a failed delivery', async () => {
    const page = await service.must<{ data: { id: string; status: string }[] }>(
      'GET',
      '/admin/deliveries?status=failed',
    );
    return page.data[0]?.id;
  });

  const operator = await accountWithPassword(service, {
    email: 'olga@plataforma.example',
    name: 'Olga Operadora',
    role: 'operator',
  });
  const support = await accountWithPassword(service, {
    email: 'sara@plataforma.example',
    name: 'Sara Suporte',
    role: 'support',
  });
  const gym = await accountWithPassword(service, {
    email: 'marta@exemplofitness.example',
    name: 'Marta Gerente',
    role: 'gym',
    place_ids: [places[0].id],
  });
  const chain = await accountWithPassword(service, {
    email: 'rui@exemplofitness.example',
    name: 'Rui Rede',
    role: 'gym',
    partner_id: rede.id,
  });
  // A refusal or two for the overview's chart: a visit again within the recent window, an unknown CPF.
  await service.call(
    'POST',
    '/v1/track_usages',
    {
      data: {
        type: 'track_usage',
        attributes: { type: 'cpf', identifier: CPFS[0], service_provider_plan_code: paulistaPlan },
      },
    },
    { 'x-api-key': places[0].place_api_key },
  );
  await service.call(
    'POST',
    '/v1/track_usages/validate',
    { type: 'cpf', identifier: '12345678909', service_provider_plan_code: paulistaPlan },
    { 'x-api-key': places[0].place_api_key },
  );
  // Pedro (Silver, 12 visits a month) checked in at Paulista: his page shows the month's use against the limit.
  const beneficiaryCode = (
    await service.must<{ data: { code: string }[] }>('GET', `/admin/beneficiaries?q=${CPFS[1]}`)
  ).data[0].code;
  const invited = await service.must<{ account: { id: string } }>('POST', '/admin/accounts', {
    email: 'nina@studiozen.example',
    name: 'Nina Zen',
    role: 'gym',
    partner_id: zen.id,
  });
  return {
    operator,
    support,
    gym,
    chain,
    beneficiaryCode,
    places,
    partnerId: rede.id,
    failedDeliveryId,
    accountId: String(invited.account.id),
  };
}

class Camera {
  private count = 0;
  constructor(private readonly service: ConsoleService) {}

  async open(page: Page, hash: string): Promise<void> {
    await page.goto(`${this.service.consoleUrl}#${hash}`);
    await this.settle(page);
  }

  async settle(page: Page): Promise<void> {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(400);
  }

  async shoot(page: Page, name: string, size: 'desktop' | 'phone'): Promise<void> {
    this.count += 1;
    const file = `${String(this.count).padStart(2, '0')}-${name}-${size}.png`;
    await page.screenshot({ path: join(OUT, file), fullPage: size === 'phone' });
    console.log(`  ${file}`);
  }
}

async function screensOf(
  browser: Browser,
  service: ConsoleService,
  camera: Camera,
  person: Person,
  role: string,
  screens: { name: string; hash: string; act?: (page: Page) => Promise<void> }[],
  size: 'desktop' | 'phone',
  locale = 'pt-BR',
): Promise<void> {
  const { context, page } = await personWindow(browser, service.base, {
    viewport: size === 'desktop' ? DESKTOP : PHONE,
    locale,
  });
  await signIn(page, service.consoleUrl, person);
  if (locale === 'en') {
    // The language switch of the top bar, as a person uses it.
    await page.getByRole('button', { name: /Português/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('menuitem', { name: 'Places' }).waitFor();
  }
  for (const screen of screens) {
    await camera.open(page, screen.hash);
    if (screen.act) {
      await screen.act(page);
      await camera.settle(page);
    }
    await camera.shoot(page, `${role}-${screen.name}`, size);
  }
  await context.close();
}

async function main(): Promise<void> {
  ensureConsoleBuilt();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const connection = await createConnection({ host: '127.0.0.1', user: 'root' });
  await connection.query(`DROP DATABASE IF EXISTS \`${DATABASE}_shots\``);
  await connection.end();
  // The last run's queue keys go too, so every run starts from nothing (only this script's own prefix).
  const redis = new Redis('redis://127.0.0.1:6379');
  for await (const keys of redis.scanStream({ match: `${QUEUE_PREFIX}_shots:*`, count: 500 })) {
    if ((keys as string[]).length) await redis.del(...(keys as string[]));
  }
  await redis.quit();
  process.env.DATABASE_URL = `mysql://root@127.0.0.1:3306/${DATABASE}`;
  process.env.QUEUE_PREFIX = QUEUE_PREFIX;

  const ok = await receiver(200, '{"received":true}');
  const failing = await receiver(500, '{"error":"database unavailable"}');
  const service = await ConsoleService.start('shots', { WEBHOOK_RETRY_SCHEDULE: '1,1', LOG_LEVEL: 'warn' });
  const browser = await launchBrowser();
  try {
    const seeded = await seed(service, ok.url, failing.url);
    const [paulista, pinheiros, moema] = seeded.places;
    const camera = new Camera(service);
    const csv = join(tmpdir(), 'beneficiarios.csv');
    writeFileSync(
      csv,
      'cpf;nome;email;plano;ativo\n111.444.777-35;Joana Lima;joana@example.com;GOLD;sim\n123.456.789-00;CPF inválido;x@example.com;GOLD;sim\n' +
        '98765432100;Sem plano;;OURO;sim\n529.982.247-25;Pedro Alves;pedro@example;SILVER;talvez\n',
    );

    const beneficiary = `/beneficiaries/${seeded.beneficiaryCode}/show`;
    const failingDeliveries = `/deliveries?filter=${encodeURIComponent(JSON.stringify({ failing: true }))}`;
    const operatorScreens = [
      { name: 'overview', hash: '/' },
      {
        name: 'overview-30-days',
        hash: '/',
        act: async (page: Page) => {
          await page.getByRole('button', { name: '30 dias' }).click();
        },
      },
      { name: 'places', hash: '/places' },
      { name: 'place-keys', hash: `/places/${paulista.id}/show` },
      {
        name: 'place-keys-revealed',
        hash: `/places/${paulista.id}/show`,
        act: async (page: Page) => {
          await page
            .getByRole('region', { name: 'Chave da unidade' })
            .getByRole('button', { name: 'Mostrar' })
            .click();
        },
      },
      {
        name: 'place-rotate-confirmation',
        hash: `/places/${paulista.id}/show`,
        act: async (page: Page) => {
          await page
            .getByRole('region', { name: 'Chave da unidade' })
            .getByRole('button', { name: 'Trocar chave' })
            .click();
        },
      },
      { name: 'place-webhook', hash: `/places/${paulista.id}/show/webhook` },
      { name: 'place-webhook-failing', hash: `/places/${pinheiros.id}/show/webhook` },
      { name: 'place-webhook-none', hash: `/places/${moema.id}/show/webhook` },
      {
        name: 'place-webhook-bad-url',
        hash: `/places/${moema.id}/show/webhook`,
        act: async (page: Page) => {
          await page.getByLabel('URL do receptor').fill('ftp://erp.example.com/hooks');
          await page.getByRole('button', { name: 'Inscrever' }).click();
        },
      },
      { name: 'place-plans', hash: `/places/${paulista.id}/show/plans` },
      { name: 'place-checkins', hash: `/places/${paulista.id}/show/check-ins` },
      { name: 'place-checkins-none', hash: `/places/${moema.id}/show/check-ins` },
      { name: 'place-app-checkins', hash: `/places/${paulista.id}/show/app-check-ins` },
      { name: 'place-app-checkins-none', hash: `/places/${moema.id}/show/app-check-ins` },
      { name: 'place-edit', hash: `/places/${paulista.id}` },
      { name: 'place-create', hash: '/places/create' },
      { name: 'partners', hash: '/partners' },
      { name: 'partner', hash: `/partners/${seeded.partnerId}/show` },
      { name: 'partner-create', hash: '/partners/create' },
      {
        name: 'partner-created',
        hash: '/partners/create',
        act: async (page: Page) => {
          await page.getByLabel('Nome').fill(`Rede Nova ${Date.now()}`);
          await page.getByRole('button', { name: 'Salvar' }).click();
          await page.getByRole('link', { name: 'Criar unidade' }).first().waitFor();
        },
      },
      { name: 'partner-rename', hash: `/partners/${seeded.partnerId}` },
      { name: 'benefit-plans', hash: '/benefit-plans' },
      { name: 'benefit-plan-edit', hash: '/benefit-plans/GOLD' },
      { name: 'beneficiaries', hash: '/beneficiaries' },
      {
        name: 'beneficiaries-search',
        hash: '/beneficiaries',
        act: async (page: Page) => {
          await page.getByPlaceholder('CPF, código ou nome').fill('111.444');
          await page.waitForTimeout(800); // the search box waits for typing to pause
        },
      },
      {
        name: 'beneficiaries-search-empty',
        hash: '/beneficiaries',
        act: async (page: Page) => {
          await page.getByPlaceholder('CPF, código ou nome').fill('ninguém com este nome');
          await page.waitForTimeout(800);
        },
      },
      { name: 'beneficiary', hash: beneficiary },
      { name: 'beneficiary-edit', hash: `/beneficiaries/${seeded.beneficiaryCode}` },
      { name: 'beneficiary-create', hash: '/beneficiaries/create' },
      {
        name: 'beneficiaries-import',
        hash: '/beneficiaries/import',
        act: async (page: Page) => {
          await page.locator('input[type=file]').setInputFiles(csv);
          await page.getByRole('button', { name: /^Importar 4 linhas/ }).click();
          await page.getByRole('region', { name: 'Resultado da importação' }).waitFor();
        },
      },
      { name: 'checkins', hash: '/visits' },
      { name: 'deliveries', hash: '/deliveries' },
      { name: 'deliveries-failing', hash: failingDeliveries },
      { name: 'delivery-failed', hash: `/deliveries/${seeded.failedDeliveryId}/show` },
      { name: 'accounts', hash: '/accounts' },
      { name: 'account-invite', hash: '/accounts/create' },
      {
        name: 'account-invitation-link',
        hash: '/accounts/create',
        act: async (page: Page) => {
          await page.getByLabel('Nome').fill('Teo Suporte');
          await page.getByLabel('E-mail').fill(`teo${Date.now()}@plataforma.example`);
          await page.getByRole('combobox', { name: 'Papel' }).click();
          await page.getByRole('option', { name: 'Suporte' }).click();
          await page.getByRole('button', { name: 'Salvar' }).click();
          await page.getByRole('dialog', { name: 'Link de convite' }).waitFor();
        },
      },
      { name: 'account-edit', hash: `/accounts/${seeded.accountId}` },
      { name: 'audit', hash: '/audit' },
    ];
    const supportScreens = [
      { name: 'overview', hash: '/' },
      { name: 'places', hash: '/places' },
      { name: 'place-keys', hash: `/places/${paulista.id}/show` },
      { name: 'beneficiaries', hash: '/beneficiaries' },
      { name: 'beneficiary', hash: beneficiary },
      { name: 'deliveries', hash: '/deliveries' },
      { name: 'delivery-failed', hash: `/deliveries/${seeded.failedDeliveryId}/show` },
    ];
    const gymScreens = [
      { name: 'overview', hash: '/' },
      { name: 'places', hash: '/places' },
      { name: 'place-keys', hash: `/places/${paulista.id}/show` },
      { name: 'place-webhook', hash: `/places/${paulista.id}/show/webhook` },
      { name: 'place-plans', hash: `/places/${paulista.id}/show/plans` },
      { name: 'place-checkins', hash: `/places/${paulista.id}/show/check-ins` },
      { name: 'place-app-checkins', hash: `/places/${paulista.id}/show/app-check-ins` },
      { name: 'other-gym-by-url', hash: `/places/${pinheiros.id}/show` },
    ];

    const chainScreens = [
      { name: 'overview', hash: '/' },
      { name: 'place-webhook-failing', hash: `/places/${pinheiros.id}/show/webhook` },
      { name: 'deliveries-failing', hash: failingDeliveries },
    ];

    for (const size of ['desktop', 'phone'] as const) {
      const { context, page } = await personWindow(browser, service.base, {
        viewport: size === 'desktop' ? DESKTOP : PHONE,
      });
      await page.goto(service.consoleUrl);
      await page.getByRole('heading', { name: 'Entrar' }).waitFor();
      await camera.settle(page);
      await camera.shoot(page, 'signin', size);
      const link = await service.must<{ url: string }>(
        'POST',
        `/admin/accounts/${seeded.accountId}/password-link`,
      );
      await page.goto(link.url);
      await camera.settle(page);
      await camera.shoot(page, 'set-password', size);
      await page.goto(`${service.consoleUrl}#/set-password/not-a-real-token`);
      await camera.settle(page);
      await camera.shoot(page, 'set-password-bad-link', size);
      await context.close();

      await screensOf(browser, service, camera, seeded.operator, 'operator', operatorScreens, size);
      await screensOf(browser, service, camera, seeded.support, 'support', supportScreens, size);
      await screensOf(browser, service, camera, seeded.gym, 'gym', gymScreens, size);
      await screensOf(browser, service, camera, seeded.chain, 'chain', chainScreens, size);
    }
    await screensOf(
      browser,
      service,
      camera,
      seeded.gym,
      'gym-english',
      gymScreens.slice(0, 4),
      'desktop',
      'en',
    );
    await screensOf(browser, service, camera, seeded.operator, 'operator-english', operatorScreens.slice(0, 1), 'desktop', 'en');
    console.log(`Screenshots in ${OUT}`);
  } finally {
    await browser.close();
    await service.stop();
    ok.server.close();
    failing.server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
