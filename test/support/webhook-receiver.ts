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
