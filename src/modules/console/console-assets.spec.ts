import Fastify, { FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerConsole } from './console-assets';

describe('registerConsole', () => {
  let dir: string;
  let fastify: FastifyInstance;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  afterEach(() => fastify.close());

  async function serving(directory: string | null): Promise<FastifyInstance> {
    fastify = Fastify();
    registerConsole(fastify, directory);
    await fastify.ready();
    return fastify;
  }

  it('redirects /console to /console/ and serves the app there, never cached, never framed', async () => {
    const app = await serving(dir);
    const redirect = await app.inject({ url: '/console' });
    expect({ status: redirect.statusCode, location: redirect.headers.location }).toEqual({
      status: 301,
      location: '/console/',
    });
    const page = await app.inject({ url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers).toMatchObject({
      'cache-control': 'no-cache',
      'x-frame-options': 'DENY',
      'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
    });
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const app = await serving(dir);
    const asset = await app.inject({ url: '/console/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a clear 404 when the console was not built', async () => {
    const app = await serving(null);
    const answer = await app.inject({ url: '/console/' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().errors[0]).toMatchObject({
      label: 'not_found',
      detail: expect.stringContaining('npm run build'),
    });
  });
});
