import { once } from 'node:events';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { freePort, ServiceProcess } from './support/service-process';

const DEMO = join(__dirname, '..', 'scripts', 'demo.ts');

/** The demo on a database and queue prefix of its own (dropped and deleted with the run's). */
function demoEnv(env: Record<string, string>): Record<string, string> {
  const database = new URL(process.env.DATABASE_URL as string);
  database.pathname = `${database.pathname}_demo`;
  return { DATABASE_URL: database.toString(), QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}_demo`, ...env };
}

async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, server };
}

describe('npm run demo (e2e, real process)', () => {
  let held: { port: number; server: Server };
  beforeAll(async () => (held = await holdPort()));
  afterAll(() => new Promise((resolve) => held.server.close(resolve)));

  it("names PORT in one line, without a stack trace, when the service's port is busy", async () => {
    const demo = new ServiceProcess(
      demoEnv({ PORT: String(held.port), DEMO_RECEIVER_PORT: String(await freePort()) }),
      DEMO,
    );
    expect(await demo.exitCode()).toBe(1);
    expect(demo.logs.trim()).toBe(
      `Cannot start: port ${held.port} is already in use by another program: set PORT to a free port (e.g. PORT=${held.port + 10}).`,
    );
  });

  it("names DEMO_RECEIVER_PORT when the webhook receiver's port is busy", async () => {
    const demo = new ServiceProcess(
      demoEnv({ PORT: String(await freePort()), DEMO_RECEIVER_PORT: String(held.port) }),
      DEMO,
    );
    expect(await demo.exitCode()).toBe(1);
    expect(demo.logs.trim()).toBe(
      `Cannot start: port ${held.port} is already in use by another program: set DEMO_RECEIVER_PORT to a free port (e.g. DEMO_RECEIVER_PORT=${held.port + 10}).`,
    );
  });

  it('takes both ports from the environment, prints the console and its logins first, and runs until Ctrl-C', async () => {
    const [port, receiverPort] = [await freePort(), await freePort()];
    const demo = new ServiceProcess(
      demoEnv({ PORT: String(port), DEMO_RECEIVER_PORT: String(receiverPort) }),
      DEMO,
    );
    try {
      await demo.waitUntilListening(120_000, 'until you press Ctrl-C');
      const base = `http://127.0.0.1:${port}`;
      const header = demo.logs.slice(0, demo.logs.indexOf('[webhook receiver]'));
      expect(header).toContain(`Console:  ${base}/console/`);
      for (const email of ['operator@demo.example', 'support@demo.example', 'gym@demo.example']) {
        expect(header).toMatch(new RegExp(`${email.replace('.', '\\.')} +password demo-console-password`));
      }
      expect(header).toContain('Stop with Ctrl-C.');
      expect(header).toContain(
        `Queue dashboard: ${base}/admin/queues   user admin, password dev-admin-token-change-me`,
      );
      expect(header).toContain(
        `Webhook receiver: http://127.0.0.1:${receiverPort}/webhooks (DEMO_RECEIVER_PORT)`,
      );
      // The demo subscribed its receiver and made a member check-in: the receiver got the event on its port.
      expect(demo.logs).toContain('[webhook receiver] POST /webhooks CHECK_IN_CREATED');
      expect(demo.logs).toContain(
        `The service (${base}, PORT and HOST) and the webhook receiver (port ${receiverPort}, DEMO_RECEIVER_PORT) run\nuntil you press Ctrl-C.`,
      );
      // The Wellhub-compatible story: the demo subscribed its receiver in that platform's format and simulated a
      // member's check-in; the signed checkin arrived and the receiver found its signature valid.
      expect(demo.logs).toMatch(
        /\[webhook receiver\] POST \/wellhub checkin\n {2}X-Gympass-Signature: [0-9A-F]{40} \(valid /,
      );
      expect(demo.logs).toContain('The demo did steps 24 and 25 at start');
      // Steps 26 and 27 as printed: validate -> 200, the same again -> 400 checkin.already.validated.
      const validate =
        /# 26\.[^\n]*\ncurl -i -X POST (\S+) -H 'Authorization: Bearer (\S+)' -H 'X-Gym-Id: (\d+)' [^\n]*\n {2}-d '([^']+)'/.exec(
          demo.logs,
        );
      expect(validate).not.toBeNull();
      const [, url, key, gymId, body] = validate as RegExpExecArray;
      const send = () =>
        fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'x-gym-id': gymId, 'content-type': 'application/json' },
          body,
        });
      const first = await send();
      expect(first.status).toBe(200);
      expect(((await first.json()) as { results: { gym: { id: number } } }).results.gym.id).toBe(
        Number(gymId),
      );
      const repeat = await send();
      expect(repeat.status).toBe(400);
      expect(((await repeat.json()) as { errors: { key: string }[] }).errors[0].key).toBe(
        'checkin.already.validated',
      );
      // Bound to 127.0.0.1 only: another loopback address of the same machine is refused.
      await expect(fetch(`http://127.0.0.2:${port}/health/live`)).rejects.toThrow();
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
    } finally {
      demo.child.kill('SIGINT');
      await demo.exitCode();
    }
    expect(demo.child.signalCode === 'SIGINT' || demo.child.exitCode === 0).toBe(true);
    // Its own start may take the 120 s it waits for, on a loaded machine.
  }, 180_000);
});
