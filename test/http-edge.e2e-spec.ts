import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { expectError } from './support/http';
import { createTestApp, TestApp } from './support/test-app';
import { eventually } from './support/webhook-receiver';

/** Sends `raw` on a fresh connection and collects everything until the server closes it. */
function exchange(port: number, raw: string, keepOpen = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(raw);
    if (!keepOpen) socket.end();
  });
}

function envelopeOf(answer: string) {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
    errors: { status: string; title: string; label: string; detail: string }[];
  };
}

describe('the HTTP edge (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ HTTP_REQUEST_TIMEOUT_SECONDS: '1', AUTH_RATE_LIMIT_PER_MINUTE: '2' });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers a body that never finishes 408 in the envelope and closes its connection', async () => {
    const answer = await exchange(
      port,
      'POST /partner/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"pl',
      true,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/Connection: close/i);
    expect(envelopeOf(answer).errors[0]).toMatchObject({
      status: '408',
      title: 'Request Timeout',
      label: 'malformed_request',
    });
  });

  it('answers headers that never finish 408 too', async () => {
    const answer = await exchange(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: a', true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(envelopeOf(answer).errors[0].label).toBe('malformed_request');
  });

  it('answers oversized headers 431 in the envelope', async () => {
    const answer = await exchange(
      port,
      `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(envelopeOf(answer).errors[0]).toMatchObject({
      status: '431',
      title: 'Request Header Fields Too Large',
      label: 'malformed_request',
      detail: 'The request headers are over the size limit.',
    });
  });

  it('answers a malformed %-encoding 400 and an over-long path segment 414, in the envelope and language', async () => {
    const admin = `Bearer ${t.config.adminApiToken}`;
    const bad = await request(t.http).get('/admin/beneficiaries/%E0%A4%A').set('Authorization', admin);
    expect(expectError(bad, 400, 'malformed_request', 'Bad Request')).toBe(
      'The URL is not valid: it holds a malformed %-encoding.',
    );
    const long = await request(t.http)
      .get(`/admin/beneficiaries/${'1'.repeat(300)}`)
      .set('Authorization', admin)
      .set('Accept-Language', 'pt-BR');
    expect(expectError(long, 414, 'malformed_request', 'URI Too Long')).toBe(
      'Um trecho do caminho da URL passa do limite de tamanho.',
    );
    expect(long.headers['content-language']).toBe('pt-BR');
  });

  it('does not believe X-Forwarded-For unless TRUST_PROXY says so: the token-exchange limit holds', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(t.http)
        .post('/partner/auth')
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .send({ place_api_key: 'x', partner_api_key: 'y' });
      statuses.push(res.status);
    }
    expect(statuses.slice(2)).toEqual([429, 429]);
  });
});

describe('the HTTP edge, configured (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_MAX_CONNECTIONS: '2',
      TRUST_PROXY: 'loopback',
      AUTH_RATE_LIMIT_PER_MINUTE: '2',
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('closes a connection over HTTP_MAX_CONNECTIONS at once, and serves again when one ends', async () => {
    const open = () => {
      const socket = connect(port, '127.0.0.1');
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      return { socket, closed };
    };
    const first = open();
    const second = open();
    await Promise.all([first, second].map(({ socket }) => new Promise((r) => socket.once('connect', r))));
    const third = open();
    third.socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    let thirdAnswer = '';
    third.socket.on('data', (chunk: Buffer) => (thirdAnswer += chunk.toString()));
    await third.closed;
    expect(thirdAnswer).toBe('');
    first.socket.destroy();
    await first.closed;
    // The server counts the freed connection once it sees it close.
    await eventually(
      async () =>
        (
          await exchange(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        ).startsWith('HTTP/1.1 200 '),
      10_000,
      'a connection to be served again',
    );
    second.socket.destroy();
  });

  it('believes X-Forwarded-For from the proxies TRUST_PROXY names: each forwarded address has its own limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(t.http)
        .post('/partner/auth')
        .set('X-Forwarded-For', `203.0.113.${i + 1}`)
        .send({ place_api_key: 'x', partner_api_key: 'y' });
      statuses.push(res.status);
    }
    expect(statuses).not.toContain(429);
  });
});
