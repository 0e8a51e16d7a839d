// The receivers of `npm run bench:webhooks`, in a process of their own so that the CPU they spend is not
// counted as the service's (the reference relay's receiver is outside its process too). A healthy receiver
// answers 200 at once; a hanging one reads each request and never answers. The parent learns what arrived over
// IPC, in batches: { kind: 'received', ids, at } for the healthy one, { kind: 'held', open, most, total } for
// the hanging one. It sends 'release' to close every held request and 'stop' to end.
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

const FLUSH_MS = 5;

/** An HTTP server on a free loopback port, and the webhook URL it answers at. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

async function main(): Promise<void> {
  const send = (message: object) => process.send?.(message);
  let ids: string[] = [];
  let at: number[] = [];
  const healthy = await listen((req, res) => {
    const arrived = Date.now();
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      at.push(arrived);
      res.writeHead(200).end();
    });
  });
  const held: ServerResponse[] = [];
  let open = 0;
  let most = 0;
  let heldChanged = false;
  const hanging = await listen((req, res) => {
    req.resume();
    held.push(res);
    most = Math.max(most, ++open);
    heldChanged = true;
    res.on('close', () => {
      open--;
      heldChanged = true;
    });
  });
  const flush = setInterval(() => {
    if (ids.length > 0) {
      send({ kind: 'received', ids, at });
      ids = [];
      at = [];
    }
    if (heldChanged) {
      heldChanged = false;
      send({ kind: 'held', open, most, total: held.length });
    }
  }, FLUSH_MS);
  process.on('message', (message: string) => {
    if (message === 'release') {
      for (const res of held) res.destroy();
      hanging.server.closeAllConnections();
    } else if (message === 'stop') {
      clearInterval(flush);
      healthy.server.closeAllConnections();
      hanging.server.closeAllConnections();
      healthy.server.close();
      hanging.server.close();
      process.disconnect?.();
    }
  });
  // The bench is gone (it ended or crashed): nothing more to receive.
  process.on('disconnect', () => process.exit(0));
  send({ kind: 'ready', healthy: healthy.url, hanging: hanging.url });
}

// Run as the bench's child; imported (for `listen`), it starts nothing.
if (require.main === module) void main();
