import request from 'supertest';
import { loadConfig } from '../src/config/app-config';
import { expectError } from './support/http';
import { OwnMariaDb } from './support/own-servers';
import { freePort, ServiceProcess } from './support/service-process';
import { eventually } from './support/webhook-receiver';

describe('a database outage mid-run (e2e, real process, own mariadbd)', () => {
  let db: OwnMariaDb;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    db = new OwnMariaDb(await freePort());
    await db.start();
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await db.remove();
  });

  it('answers 503 service_unavailable with Retry-After and logs one line per request, then recovers', async () => {
    const port = await freePort();
    service = new ServiceProcess({
      PORT: String(port),
      DATABASE_URL: db.url('gym_outage'),
      LOG_LEVEL: 'info',
    });
    await service.waitUntilListening(60_000);
    const base = `http://127.0.0.1:${port}`;
    const admin = `Bearer ${loadConfig().adminApiToken}`;
    const listPartners = () => request(base).get('/admin/partners').set('Authorization', admin);
    await listPartners().expect(200);
    await request(base).get('/health/ready').expect(200);

    await db.stop();
    const before = service.logs.length;
    for (let i = 0; i < 3; i++) {
      const res = await listPartners().set('Accept-Language', i === 2 ? 'es' : 'en');
      expect(res.headers['retry-after']).toBe('5');
      const detail = expectError(res, 503, 'service_unavailable', 'Service Unavailable');
      expect(detail).toBe(
        i === 2
          ? 'El servicio no puede acceder a su base de datos en este momento; reintente en unos instantes.'
          : 'The service cannot reach its database right now; try again shortly.',
      );
    }
    const ready = await request(base).get('/health/ready').expect(503);
    expect(ready.body.details.database.status).toBe('down');
    expect((await request(base).get('/health/live').expect(200)).body.status).toBe('ok');

    // The service's output reaches this process through a pipe, some time after its answers.
    const output = service;
    const logged = () => output.logs.slice(before).split('\n').filter(Boolean);
    const requestLinesOf = (lines: string[]) =>
      lines.filter((line) => line.includes('"url":"/admin/partners"'));
    await eventually(() => requestLinesOf(logged()).length >= 3, 10_000, 'a log line for each request');
    const lines = logged();
    const requestLines = requestLinesOf(lines);
    expect(requestLines).toHaveLength(3);
    expect(requestLines.every((line) => line.includes('"statusCode":503'))).toBe(true);
    expect(lines.filter((line) => /\bat .*\.(ts|js):\d+/.test(line) || line.includes('"stack"'))).toEqual([]);

    await db.start();
    await eventually(async () => (await listPartners()).status === 200, 30_000, 'the service to recover');
    await request(base).get('/health/ready').expect(200);
  });
});
