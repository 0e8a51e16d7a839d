import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', 'src', 'main.ts');

/** The service (or another entry point, such as the demo) as a real process of its own through ts-node. */
export class ServiceProcess {
  private output = '';
  readonly child: ChildProcess;

  constructor(env: Record<string, string>, entry = MAIN) {
    this.child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', entry], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  get logs(): string {
    return this.output;
  }

  async exitCode(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const [code] = (await once(this.child, 'exit')) as [number | null];
    return code;
  }

  async waitUntilListening(timeoutMs = 30_000, sign = 'listening'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.output.includes(sign)) {
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`service did not start:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    await once(this.child, 'exit');
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
