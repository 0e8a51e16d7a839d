import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../src/modules/webhooks/webhook-policy';

const ROOT = join(__dirname, '..');
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('README and docs/', () => {
  it('link only to files inside the repository, each of which exists', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      if (text.includes('../shared')) broken.push(`${page}: mentions ../shared`);
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const file = resolve(dirname(join(ROOT, page)), target.split('#')[0]);
        if (!file.startsWith(`${ROOT}/`) || !existsSync(file)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the Node snippet of docs/webhooks.md verifies a delivery signed as the service signs it, and refuses a forged one', () => {
    const text = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
    const snippet = /\*\*Node\*\*.*\n+```js\n([\s\S]*?)```/.exec(text)?.[1];
    expect(snippet).toBeDefined();
    const secret = generateWebhookSecret();
    const rawBody = JSON.stringify({ id: 'evt_1', type: 'CHECK_IN_CREATED' });
    const at = new Date();
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_1', at, rawBody),
    };
    const run = (body: string) =>
      new Function('require', 'process', 'rawBody', 'headers', `${snippet}\nreturn event;`)(
        require,
        { env: { WEBHOOK_SECRET: secret } },
        body,
        headers,
      ) as unknown;
    expect(run(rawBody)).toEqual({ id: 'evt_1', type: 'CHECK_IN_CREATED' });
    expect(() => run(rawBody.replace('evt_1', 'evt_2'))).toThrow();
  });
});
