import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './webhook-receiver';

function running(child?: ChildProcess): child is ChildProcess {
  return !!child && child.exitCode === null && child.signalCode === null;
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (!running(child)) return;
  child.kill('SIGKILL');
  await once(child, 'exit');
}

/** A redis-server of the test's own, on its own port, without persistence, that the test stops and starts. */
export class OwnRedis {
  private child?: ChildProcess;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (running(this.child)) return;
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    this.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(() => output.includes('Ready to accept connections'), 10_000, 'redis-server to start');
  }

  stop(): Promise<void> {
    return kill(this.child);
  }
}

/**
 * A mariadbd of the test's own: a fresh data folder under the temp dir, its own port and socket, root without a
 * password on 127.0.0.1. `stop()` kills it (an outage); `start()` runs it again on the same data.
 */
export class OwnMariaDb {
  private child?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'gym-own-mariadb-'));
  constructor(readonly port: number) {}

  url(database: string): string {
    return `mysql://root@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    if (running(this.child)) return;
    const dataDir = join(this.dir, 'data');
    if (!this.installed) {
      const install = spawnSync(
        'mariadb-install-db',
        [
          '--no-defaults',
          `--datadir=${dataDir}`,
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
        ],
        { encoding: 'utf8' },
      );
      if (install.status !== 0)
        throw new Error(`mariadb-install-db failed:\n${install.stdout}${install.stderr}`);
      this.installed = true;
    }
    this.child = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(this.dir, 'mariadb.sock')}`,
        `--pid-file=${join(this.dir, 'mariadb.pid')}`,
        '--innodb-buffer-pool-size=16M',
        '--innodb-log-file-size=8M',
        '--skip-log-bin',
        // mariadbd refuses to run as root unless told to (CI containers run the tests as root).
        ...(process.getuid?.() === 0 ? ['--user=root'] : []),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let output = '';
    this.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      () => {
        if (!running(this.child)) throw new Error(`mariadbd exited:\n${output}`);
        return output.includes('ready for connections');
      },
      60_000,
      'mariadbd to start',
    );
  }
  private installed = false;

  stop(): Promise<void> {
    return kill(this.child);
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
