import request from 'supertest';
import { createGym } from './factories/partners.factory';
import { freePort, ServiceProcess } from './support/service-process';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const service = new ServiceProcess(env);
  const code = await service.exitCode();
  return { code, output: service.logs };
}

describe('service start (e2e, real process)', () => {
  it('exits at once naming the MySQL URL and how to start it when MySQL is unreachable', async () => {
    const run = await runToExit({ DATABASE_URL: 'mysql://root@127.0.0.1:1/gym_nowhere' });
    expect(run.code).toBe(1);
    expect(run.output).toContain('Cannot reach MySQL at mysql://127.0.0.1:1/gym_nowhere');
    expect(run.output).toMatch(/Start MariaDB/);
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

  it('keeps birthdays as sent when the process runs west of UTC', async () => {
    const t = await createTestApp();
    const port = await freePort();
    const service = new ServiceProcess({ PORT: String(port), TZ: 'America/Sao_Paulo' });
    try {
      await service.waitUntilListening();
      const admin = `Bearer ${t.config.adminApiToken}`;
      const base = `http://127.0.0.1:${port}`;
      await request(base)
        .post('/admin/benefit-plans')
        .set('Authorization', admin)
        .send({ code: 'BDAY', name: 'Birthday plan', tier: 1, monthly_visit_limit: null })
        .expect(201);
      await request(base)
        .post('/admin/beneficiaries')
        .set('Authorization', admin)
        .send({ cpf: '52998224725', name: 'Ana', birthday: '1991-02-03', benefit_plan_code: 'BDAY' })
        .expect(201);
      const got = await request(base).get('/admin/beneficiaries/52998224725').set('Authorization', admin);
      expect(got.body.birthday).toBe('1991-02-03');
    } finally {
      await service.stop();
      await t.close();
    }
  });

  describe('logging', () => {
    let t: TestApp;
    let service: ServiceProcess | undefined;

    beforeAll(async () => {
      t = await createTestApp();
      await truncateAll(t.dataSource);
    });
    afterAll(async () => {
      await service?.stop();
      await t.close();
    });

    it('never writes a key, a token or a CPF into a log line, and tags every request line with its id', async () => {
      const gym = await createGym(t);
      const port = await freePort();
      service = new ServiceProcess({ PORT: String(port), LOG_LEVEL: 'trace' });
      await service.waitUntilListening();
      const base = `http://127.0.0.1:${port}`;

      const auth = await request(base)
        .post('/partner/auth')
        .send({ place_api_key: gym.placeApiKey, partner_api_key: gym.partnerApiKey })
        .expect(201);
      const token: string = auth.body.token;
      await request(base).get('/partner/plans').set('Authorization', `Bearer ${token}`).expect(200);
      await request(base).get('/partner/plans').set('Authorization', `Bearer ${token}x`).expect(401);
      await request(base)
        .post('/v1/track_usages/validate')
        .set('x-api-key', gym.placeApiKey)
        .send({ type: 'cpf', identifier: '11144477735' })
        .expect(422);
      await request(base)
        .patch('/admin/beneficiaries/11144477735')
        .set('Authorization', 'Bearer wrong')
        .send({});
      await new Promise((resolve) => setTimeout(resolve, 300));

      const logs = service.logs;
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
