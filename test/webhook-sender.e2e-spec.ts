import { once } from 'node:events';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { loadConfig } from '../src/config/app-config';
import { WebhookSender } from '../src/modules/webhooks/delivery/webhook-sender';

/**
 * A receiver at the TCP level: answers the first request of each connection with 200 and keeps the
 * connection open; a later request on the same connection is answered by `later` (by default a reset, as when
 * the receiver closed the idle connection just as the sender wrote on it).
 */
class KeepAliveReceiver {
  connections = 0;
  answered = 0;
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly first: 'answer' | 'reset' | 'continue' = 'answer',
    private readonly later: 'answer' | 'reset' = 'reset',
  ) {}

  async start(): Promise<string> {
    this.server = createServer((socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      let requests = 0;
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1');
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        requests++;
        const answer = requests === 1 ? this.first : this.later;
        if (answer === 'reset') return socket.resetAndDestroy();
        this.answered++;
        // An unasked-for `100 Continue` ahead of the answer (the request had no `Expect`).
        if (answer === 'continue') socket.write('HTTP/1.1 100 Continue\r\n\r\n');
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
      socket.on('error', () => undefined);
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    // The sender keeps its connections open: close waits for them otherwise.
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/**
 * The pool takes a connection back a turn of the event loop after its answer (as a run's next batch comes after
 * its outcome's write): a request sent at once would open another.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('webhook sender on kept-alive connections (e2e)', () => {
  const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '3000' });
  let sender: WebhookSender;
  let receiver: KeepAliveReceiver | undefined;
  const message = (url: string, eventId: string) => ({
    url,
    secret: `whsec_${Buffer.from('a secret of 24 bytes!!!!').toString('base64')}`,
    eventId,
    payload: JSON.stringify({ id: eventId }),
    at: new Date(),
  });

  beforeEach(() => (sender = new WebhookSender(config)));
  afterEach(async () => {
    sender.onModuleDestroy();
    await receiver?.stop();
  });

  it('a request on a kept-alive connection that the receiver reset goes again on a new one, in the same attempt', async () => {
    receiver = new KeepAliveReceiver('answer', 'reset');
    const url = await receiver.start();
    expect(await sender.send(message(url, 'evt_1'))).toMatchObject({ ok: true, statusCode: 200 });
    await nextTurn();
    // The kept-alive connection is reused and reset; the request is written again on a second connection.
    expect(await sender.send(message(url, 'evt_2'))).toMatchObject({
      ok: true,
      statusCode: 200,
      error: null,
    });
    expect(receiver.connections).toBe(2);
    expect(receiver.answered).toBe(2);
  });

  it('a reset on a new connection is the attempt failing: the receiver may have read the request', async () => {
    receiver = new KeepAliveReceiver('reset', 'reset');
    const url = await receiver.start();
    const result = await sender.send(message(url, 'evt_3'));
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toMatch(/ECONNRESET|socket hang up/);
    expect(receiver.connections).toBe(1);
  });

  it('an answer the sender refuses (an unasked-for 100 Continue) fails the attempt, the request sent once', async () => {
    receiver = new KeepAliveReceiver('continue', 'answer');
    const url = await receiver.start();
    const result = await sender.send(message(url, 'evt_7'));
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(receiver.connections).toBe(1);
    expect(receiver.answered).toBe(1);
  });

  it('kept-alive connections that keep working carry the next requests, none opened anew', async () => {
    receiver = new KeepAliveReceiver('answer', 'answer');
    const url = await receiver.start();
    for (const id of ['evt_4', 'evt_5', 'evt_6']) {
      expect(await sender.send(message(url, id))).toMatchObject({ ok: true, statusCode: 200 });
      await nextTurn();
    }
    expect(receiver.connections).toBe(1);
    expect(receiver.answered).toBe(3);
  });
});

/**
 * A receiver that sends its status line and headers, the first bytes of a longer body, and then nothing more
 * (it keeps the connection open), so that the attempt is cut short after its answer began.
 */
async function stalledReceiver(
  statusLine: string,
  headers: string[] = [],
): Promise<{ url: string; answered: Promise<void>; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let began: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (began = resolve));
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write(
        `HTTP/1.1 ${statusLine}\r\n${[...headers, 'Content-Length: 100'].join('\r\n')}\r\n\r\npartial`,
      );
      began();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    answered,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('webhook sender: an attempt cut short after its status line arrived (e2e)', () => {
  const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '400' });
  const message = (url: string) => ({
    url,
    secret: `whsec_${Buffer.from('a secret of 24 bytes!!!!').toString('base64')}`,
    eventId: 'evt_cut',
    payload: '{"id":"evt_cut"}',
    at: new Date(),
  });
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => stop?.());

  it('at the deadline, a 503 whose body never ends is that 503, its Retry-After kept, not a timeout', async () => {
    const receiver = await stalledReceiver('503 Service Unavailable', ['Retry-After: 7']);
    stop = receiver.stop;
    const sender = new WebhookSender(config);
    const result = await sender.send(message(receiver.url));
    sender.onModuleDestroy();
    expect(result).toMatchObject({ ok: false, statusCode: 503, error: 'HTTP 503', responseBody: 'partial' });
    expect(result.retryAfterMs).toBeGreaterThan(6_000);
    expect(result.abandoned).toBeUndefined();
  });

  it.each([
    ['200 OK', { ok: true, statusCode: 200, error: null }],
    ['500 Internal Server Error', { ok: false, statusCode: 500, error: 'HTTP 500' }],
  ])(
    'when the process stops after a %s status line, the answer decides the attempt: not abandoned',
    async (line, expected) => {
      const receiver = await stalledReceiver(line);
      stop = receiver.stop;
      // The deadline (and a 2xx's grace for its body) well past the shutdown: only the shutdown ends the attempt.
      const sender = new WebhookSender(
        loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '10000' }),
      );
      const sent = sender.send(message(receiver.url));
      await receiver.answered;
      // The status line is read in the sender's next turns of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const stoppedAt = Date.now();
      sender.onModuleDestroy();
      const result = await sent;
      expect(Date.now() - stoppedAt).toBeLessThan(400);
      expect(result).toMatchObject(expected);
      expect(result.abandoned).toBeUndefined();
    },
  );

  it('when the process stops before any answer, the attempt is abandoned (not an attempt of the receiver)', async () => {
    // A receiver that accepts the connection and never answers.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    stop = async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    };
    const sender = new WebhookSender(
      loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '10000' }),
    );
    const sent = sender.send(message(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/hooks`));
    await new Promise((resolve) => setTimeout(resolve, 100));
    sender.onModuleDestroy();
    expect(await sent).toMatchObject({ ok: false, abandoned: true, statusCode: null });
  });
});
