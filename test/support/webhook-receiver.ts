import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the body had arrived. */
  at: number;
}

type Responder = (request: ReceivedRequest, index: number, res: ServerResponse) => void;

/** A real HTTP receiver on loopback that records what it gets and answers as the test says. */
export class WebhookReceiver {
  readonly received: ReceivedRequest[] = [];
  private server?: Server;
  private responder: Responder = (_request, _index, res) => res.writeHead(200).end('ok');

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const request = { path: req.url ?? '', headers: req.headers, body, at: Date.now() };
        this.received.push(request);
        this.responder(request, this.received.length - 1, res);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  url(path = '/hooks'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  respond(responder: Responder): void {
    this.responder = responder;
  }

  reset(): void {
    this.received.length = 0;
    this.responder = (_request, _index, res) => res.writeHead(200).end('ok');
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Polls until `check` passes or the time is up. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The run id of `whileHeld`'s holds: with a `/`, as a run that began has, so the lost-run check leaves it. */
const BURST_HOLD = 'run.test/burst';

/**
 * Runs `burst` (check-ins sent at once) while a place's webhook endpoints are held as a run holds them, then
 * frees them: the poller's next round finds the whole burst due and starts one run with it. Without the hold, a
 * round that lands mid-burst starts a run with the first few events alone, and the rest wait for that run to end.
 */
export async function whileHeld<T>(
  dataSource: { query(sql: string, values?: unknown[]): Promise<unknown> },
  placeId: string,
  burst: () => Promise<T>,
): Promise<T> {
  await dataSource.query(
    `INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, run_id, run_until)
     SELECT id, 0, 0, ?, ? FROM webhook_subscriptions WHERE place_id = ?
     ON DUPLICATE KEY UPDATE run_id = VALUES(run_id), run_until = VALUES(run_until)`,
    [BURST_HOLD, new Date(Date.now() + 600_000), placeId],
  );
  try {
    return await burst();
  } finally {
    await dataSource.query(
      'UPDATE webhook_endpoint_states SET run_id = NULL, run_until = NULL WHERE run_id = ?',
      [BURST_HOLD],
    );
  }
}
