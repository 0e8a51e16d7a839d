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

/** A connection from `from` (a loopback address of this machine) that has sent `raw` and waits. */
function hold(port: number, from: string, raw: string) {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  void connected.then(() => socket.write(raw));
  return { socket, closed, connected, answer: () => answer };
}

const AUTH_BODY = '{"place_api_key":"a","partner_api_key":"b"}';
const HALF = 17;
/** A request's headers and half its body: in progress until the rest comes (or the request times out). */
const halfSent = (headers = '') =>
  `POST /partner/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${AUTH_BODY.length}\r\n${headers}\r\n${AUTH_BODY.slice(0, HALF)}`;
const LIVE = 'GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';

describe('the HTTP edge: one client address holds at most its share (e2e)', () => {
  let t: TestApp;
  let port: number;
  const held: ReturnType<typeof hold>[] = [];

  beforeAll(async () => {
    t = await createTestApp({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '4' });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterEach(() => {
    for (const connection of held.splice(0)) connection.socket.destroy();
  });
  afterAll(() => t.close());

  it('closes a connection over the share of its address at once, while a second address is served', async () => {
    for (let i = 0; i < 4; i++) held.push(hold(port, '127.0.0.1', halfSent()));
    await Promise.all(held.map((connection) => connection.connected));
    const over = hold(port, '127.0.0.1', LIVE);
    await over.closed;
    expect(over.answer()).toBe('');
    const probe = hold(port, '127.0.0.2', LIVE);
    await probe.closed;
    expect(probe.answer()).toMatch(/^HTTP\/1\.1 200 /);
    // Its share frees as its connections end.
    held[0].socket.destroy();
    await held[0].closed;
    await eventually(
      async () => {
        const again = hold(port, '127.0.0.1', LIVE);
        await again.closed;
        return again.answer().startsWith('HTTP/1.1 200 ');
      },
      10_000,
      'the address to be served again',
    );
  });

  it('ignores X-Forwarded-For from a peer TRUST_PROXY does not name', async () => {
    for (let i = 0; i < 4; i++)
      held.push(hold(port, '127.0.0.1', halfSent(`X-Forwarded-For: 203.0.113.${i + 1}\r\n`)));
    await Promise.all(held.map((connection) => connection.connected));
    const over = hold(
      port,
      '127.0.0.1',
      LIVE.replace('\r\n\r\n', '\r\nX-Forwarded-For: 203.0.113.99\r\n\r\n'),
    );
    await over.closed;
    expect(over.answer()).toBe('');
  });
});

describe('the HTTP edge: behind a trusted proxy, each forwarded client holds at most its share (e2e)', () => {
  let t: TestApp;
  let port: number;
  const PROXY = '127.0.0.3';
  const held: ReturnType<typeof hold>[] = [];
  const forwardedFor = (client: string) => `X-Forwarded-For: ${client}\r\n`;

  beforeAll(async () => {
    t = await createTestApp({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3', TRUST_PROXY: PROXY });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterEach(() => {
    for (const connection of held.splice(0)) connection.socket.destroy();
  });
  afterAll(() => t.close());

  it("keeps the proxy's connections open past the share, and refuses a client's requests past its own: 429", async () => {
    for (let i = 0; i < 3; i++) held.push(hold(port, PROXY, halfSent(forwardedFor('203.0.113.7'))));
    for (let i = 0; i < 3; i++) held.push(hold(port, PROXY, halfSent(forwardedFor('203.0.113.8'))));
    await Promise.all(held.map((connection) => connection.connected));
    await eventually(
      async () => {
        const over = hold(port, PROXY, LIVE.replace('\r\n\r\n', `\r\n${forwardedFor('203.0.113.7')}\r\n`));
        await over.closed;
        return over.answer().startsWith('HTTP/1.1 429 ');
      },
      10_000,
      'the seventh request of 203.0.113.7 to be refused',
    );
    const refused = hold(port, PROXY, LIVE.replace('\r\n\r\n', `\r\n${forwardedFor('203.0.113.7')}\r\n`));
    await refused.closed;
    expect(refused.answer()).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.answer()).toMatch(/retry-after: 1/i);
    expect(envelopeOf(refused.answer()).errors[0]).toMatchObject({
      status: '429',
      label: 'rate_limited',
      detail: 'Too many requests from your address are in progress at once; retry in a moment.',
    });
    // Another client behind the same proxy, and a client that connects directly.
    const other = hold(port, PROXY, LIVE.replace('\r\n\r\n', `\r\n${forwardedFor('203.0.113.9')}\r\n`));
    const direct = hold(
      port,
      '127.0.0.1',
      LIVE.replace('\r\n\r\n', `\r\n${forwardedFor('203.0.113.7')}\r\n`),
    );
    await Promise.all([other.closed, direct.closed]);
    expect(other.answer()).toMatch(/^HTTP\/1\.1 200 /);
    expect(direct.answer()).toMatch(/^HTTP\/1\.1 200 /);
    // A request that ends gives its place back.
    held[0].socket.write(AUTH_BODY.slice(HALF));
    await eventually(
      async () => {
        const again = hold(port, PROXY, LIVE.replace('\r\n\r\n', `\r\n${forwardedFor('203.0.113.7')}\r\n`));
        await again.closed;
        return again.answer().startsWith('HTTP/1.1 200 ');
      },
      10_000,
      '203.0.113.7 to be served again',
    );
  });
});
