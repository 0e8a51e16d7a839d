import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');
const DIST = join(__dirname, '..', '..', 'dist');
const MAIN = join(SRC, 'main.ts');

/** The newest modification time of the sources a build compiles (specs left out), in ms. */
function newestSource(dir = SRC): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

let buildIsCurrent: boolean | undefined;

/**
 * Node's arguments for a TypeScript entry point: its build in dist/ when the build is newer than every source
 * (`npm run build`, which CI runs before the tests, writes all of dist/ anew), else the source through ts-node,
 * so that a test never runs code older than the source. The build starts in about 2 s, ts-node in about 7:
 * the suite starts the service as a process of its own dozens of times.
 */
export function entryArgs(entry: string): string[] {
  const built = join(DIST, relative(SRC, entry)).replace(/\.ts$/, '.js');
  if (!entry.startsWith(SRC) || !existsSync(built)) return ['-r', 'ts-node/register/transpile-only', entry];
  buildIsCurrent ??= statSync(join(DIST, 'main.js')).mtimeMs > newestSource();
  return buildIsCurrent ? [built] : ['-r', 'ts-node/register/transpile-only', entry];
}

/** The service (or another entry point, such as the demo) as a real process of its own (see entryArgs). */
export class ServiceProcess {
  private output = '';
  readonly child: ChildProcess;

  constructor(env: Record<string, string>, entry = MAIN) {
    this.child = spawn(process.execPath, entryArgs(entry), {
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
