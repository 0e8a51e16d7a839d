import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const MAIN = join(SRC, 'main.ts');

/** What a build is made from: the sources it compiles (specs left out) and the files that configure it. */
const BUILD_CONFIG = ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'].map(
  (file) => join(ROOT, file),
);

/** The files under `dir` whose names end in `suffix` (and do not end in `skip`), relative to `dir`. */
function filesUnder(dir: string, suffix: string, skip?: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, suffix, skip, base);
    return entry.name.endsWith(suffix) && !(skip && entry.name.endsWith(skip)) ? [relative(base, path)] : [];
  });
}

/**
 * Whether dist/ is the build of the sources as they are: written after every source and configuration file was
 * last changed, with one compiled file for each source and none for a source deleted or renamed since (whose
 * migration or entity the process would otherwise still load).
 */
function buildIsCurrent(): boolean {
  const main = join(DIST, 'main.js');
  if (!existsSync(main)) return false;
  const sources = filesUnder(SRC, '.ts', '.spec.ts');
  const compiled = new Set(filesUnder(DIST, '.js').filter((file) => !file.startsWith(`console${sep}`)));
  if (compiled.size !== sources.length || sources.some((file) => !compiled.has(file.replace(/\.ts$/, '.js'))))
    return false;
  const builtAt = statSync(main).mtimeMs;
  return [...sources.map((file) => join(SRC, file)), ...BUILD_CONFIG].every(
    (file) => !existsSync(file) || statSync(file).mtimeMs < builtAt,
  );
}

let current: boolean | undefined;

/**
 * Node's arguments for a TypeScript entry point of src/: its build in dist/ when that build is current (see
 * buildIsCurrent; `npm run build`, which CI runs before the tests, writes all of dist/ anew), else the source
 * through ts-node. The build starts in about 2 s, ts-node in about 7, and the suite starts the service as a
 * process of its own dozens of times. A build started while the tests run replaces dist/ under them: build
 * before, or after.
 */
export function entryArgs(entry: string): string[] {
  const fromSources = ['-r', 'ts-node/register/transpile-only', entry];
  if (!entry.startsWith(SRC + sep)) return fromSources;
  current ??= buildIsCurrent();
  return current ? [join(DIST, relative(SRC, entry)).replace(/\.ts$/, '.js')] : fromSources;
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
