import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { createGym } from './factories/partners.factory';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

const MAIN = join(__dirname, '..', 'src', 'main.ts');

interface Run {
  code: number | null;
  output: string;
}

function startService(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', MAIN], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function runToExit(env: Record<string, string>): Promise<Run> {
  const { child, output } = startService(env);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output: output() };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('service start (e2e, real process)', () => {
  it('exits at once naming the MySQL URL and how to start it when MySQL is unreachable', async () => {
    const run = await runToExit({ DATABASE_URL: 'mysql://root@127.0.0.1:1/gym_nowhere' });
    expect(run.code).toBe(1);
    expect(run.output).toContain('Cannot reach MySQL at mysql://127.0.0.1:1/gym_nowhere');
    expect(run.output).toMatch(/Start MariaDB/);
  });

  it('exits at once naming the Redis URL and how to start it when Redis is unreachable', async () => {
    const run = await runToExit({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(run.code).toBe(1);
    expect(run.output).toContain('Cannot reach Redis at redis://127.0.0.1:1');
    expect(run.output).toMatch(/Start Redis/);
  });

  it('refuses to start in production with a missing secret and names it', async () => {
    const run = await runToExit({
      NODE_ENV: 'production',
      JWT_SECRET: '',
      ADMIN_API_TOKEN: '',
      KEY_ENCRYPTION_SECRET: '',
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain('JWT_SECRET is required when NODE_ENV=production');
  });

  it('refuses to start in production with a default secret and names it', async () => {
    const run = await runToExit({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-jwt-secret',
      ADMIN_API_TOKEN: 'a-production-admin-token',
      KEY_ENCRYPTION_SECRET: 'dev-key-encryption-secret-change-me',
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain('KEY_ENCRYPTION_SECRET still has its development default');
  });

  describe('logging', () => {
    let t: TestApp;
    let service: { child: ChildProcess; output: () => string } | undefined;

    beforeAll(async () => {
      t = await createTestApp();
      await truncateAll(t.dataSource);
    });
    afterAll(async () => {
      service?.child.kill('SIGTERM');
      if (service && service.child.exitCode === null) await once(service.child, 'exit');
      await t.close();
    });

    it('never writes a key or a token into a log line, and tags every request line with its id', async () => {
      const gym = await createGym(t);
      const port = await freePort();
      service = startService({ PORT: String(port), LOG_LEVEL: 'trace' });
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 100 && !service.output().includes('listening'); i++)
        await new Promise((r) => setTimeout(r, 200));
      expect(service.output()).toContain('listening');

      const auth = await request(base)
        .post('/partner/auth')
        .send({ place_api_key: gym.placeApiKey, partner_api_key: gym.partnerApiKey })
        .expect(201);
      const token: string = auth.body.token;
      await request(base).get('/partner/plans').set('Authorization', `Bearer ${token}`);
      await request(base).get('/partner/plans').set('Authorization', `Bearer ${token}x`);
      await request(base)
        .post('/v1/track_usages/validate')
        .set('x-api-key', gym.placeApiKey)
        .send({ type: 'cpf', identifier: '11144477735' });
      await request(base)
        .patch('/admin/beneficiaries/11144477735')
        .set('Authorization', 'Bearer wrong')
        .send({});
      await new Promise((r) => setTimeout(r, 300));

      const logs = service.output();
      for (const secret of [gym.placeApiKey, gym.partnerApiKey, token, token.split('.')[2]]) {
        expect(logs).not.toContain(secret);
      }
      expect(logs).not.toContain('11144477735');
      const requestLines = logs.split('\n').filter((line) => line.includes('"req":'));
      expect(requestLines.length).toBeGreaterThanOrEqual(5);
      for (const line of requestLines) expect(JSON.parse(line).req.id).toEqual(expect.any(String));
    });
  });
});
