import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { TAG_ORDER } from '../src/common/swagger/swagger';
import { WEBHOOK_QUEUE } from '../src/modules/webhooks/webhooks.constants';
import { createTestApp, TestApp } from './support/test-app';

const FILE = join(__dirname, '..', 'docs', 'openapi.json');
/** `npm run docs:openapi` runs this suite with it set, to rewrite the file from the running service. */
const WRITE = process.env.OPENAPI_WRITE === '1';

type Operation = { tags?: string[]; parameters?: { name: string; in: string; required?: boolean }[] };

describe('The OpenAPI document (e2e)', () => {
  let t: TestApp;
  let served: {
    tags: { name: string }[];
    paths: Record<string, Record<string, Operation>>;
  };
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.get<Queue>(getQueueToken(WEBHOOK_QUEUE)).isReady();
    served = (await request(t.http).get('/docs-json').expect(200)).body;
    if (WRITE) writeFileSync(FILE, `${JSON.stringify(served, null, 2)}\n`);
  });
  afterAll(() => t.close());

  it('docs/openapi.json is the document the service serves at /docs-json', () => {
    const file = JSON.parse(readFileSync(FILE, 'utf8'));
    const equal = JSON.stringify(file) === JSON.stringify(served);
    if (!equal) {
      throw new Error(
        'docs/openapi.json differs from /docs-json: run `npm run docs:openapi` to rewrite it, then review and commit it',
      );
    }
  });

  it('register takes one optional Idempotency-Key', () => {
    const parameters = (served.paths['/v1/track_usages'].post as Operation).parameters ?? [];
    const headers = parameters.filter((p) => p.in === 'header');
    expect(headers).toEqual([expect.objectContaining({ name: 'Idempotency-Key', required: false })]);
  });

  it('lists the tags in the order an integrator needs them, the control panel last', () => {
    const names = TAG_ORDER.map(([name]) => name);
    expect(served.tags.map((tag: { name: string }) => tag.name)).toEqual(names);
    const firstSeen: string[] = [];
    for (const item of Object.values(served.paths) as Record<string, Operation>[]) {
      for (const operation of Object.values(item)) {
        const tag = operation.tags?.[0];
        if (tag && !firstSeen.includes(tag)) firstSeen.push(tag);
      }
    }
    expect(firstSeen).toEqual(names.filter((name) => firstSeen.includes(name)));
    expect(firstSeen.slice(0, 3)).toEqual(['Authentication', 'Check-in', 'App']);
    expect(
      firstSeen
        .slice(-4)
        .every((tag) => ['Control panel', 'Control panel: webhooks', 'Accounts', 'Audit'].includes(tag)),
    ).toBe(true);
  });
});
