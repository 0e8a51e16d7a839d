import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { freePort } from './service-process';

const PROVIDER = '/usr/lib/galera/libgalera_smm.so';

/** The user the nodes run as: `mysql` when the tests run as root (an rsync state transfer refuses root). */
function nodeUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'mysql'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function running(child?: ChildProcess): child is ChildProcess {
  return !!child && child.exitCode === null && child.signalCode === null;
}

export interface GaleraNodePorts {
  sql: number;
  replication: number;
  ist: number;
  sst: number;
}

/** One mariadbd of the cluster: its own data folder and ports; `kill` is kill -9 of its process. */
export class GaleraNode {
  private child?: ChildProcess;
  private output = '';
  private installed = false;
  private killed = false;

  constructor(
    readonly index: number,
    readonly ports: GaleraNodePorts,
    private readonly dir: string,
    private readonly cluster: GaleraCluster,
  ) {}

  url(database: string): string {
    return `mysql://root@127.0.0.1:${this.ports.sql}/${database}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get logs(): string {
    return this.output;
  }

  /** Starts the node: the first start of the first node founds the cluster, every other start joins it. */
  async start(bootstrap: boolean): Promise<void> {
    if (running(this.child)) return;
    const user = this.cluster.user;
    const dataDir = join(this.dir, 'data');
    if (!this.installed && bootstrap) {
      const install = spawnSync(
        'mariadb-install-db',
        [
          '--no-defaults',
          `--datadir=${dataDir}`,
          '--auth-root-authentication-method=normal',
          '--skip-test-db',
        ],
        { encoding: 'utf8', ...user },
      );
      if (install.status !== 0)
        throw new Error(`mariadb-install-db failed:\n${install.stdout}${install.stderr}`);
      this.installed = true;
    } else if (!this.installed) {
      // A joiner's folder is filled by its state transfer.
      mkdirSync(dataDir, { recursive: true });
      if (user) chownSync(dataDir, user.uid, user.gid);
      if (user) chownSync(this.dir, user.uid, user.gid);
      this.installed = true;
    }
    const position = this.killed ? this.recoveredPosition(dataDir) : [];
    const peers = this.cluster.nodes.map((node) => `127.0.0.1:${node.ports.replication}`).join(',');
    const providerOptions = [
      `gmcast.listen_addr=tcp://127.0.0.1:${this.ports.replication}`,
      `ist.recv_addr=127.0.0.1:${this.ports.ist}`,
      'gcache.size=64M',
    ].join(';');
    this.output = '';
    this.child = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--port=${this.ports.sql}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(this.dir, 'mariadb.sock')}`,
        `--pid-file=${join(this.dir, 'mariadb.pid')}`,
        '--innodb-buffer-pool-size=32M',
        '--innodb-log-file-size=16M',
        // Durability comes from the other nodes: a node that dies rejoins from them.
        '--innodb-flush-log-at-trx-commit=2',
        '--max-connections=300',
        // What Galera requires, and what the service must work with.
        '--binlog-format=ROW',
        '--innodb-autoinc-lock-mode=2',
        '--wsrep-on=ON',
        `--wsrep-provider=${PROVIDER}`,
        `--wsrep-mode=${this.cluster.wsrepMode}`,
        `--wsrep-cluster-name=${this.cluster.name}`,
        `--wsrep-cluster-address=gcomm://${bootstrap ? '' : peers}`,
        `--wsrep-node-name=node${this.index + 1}`,
        `--wsrep-node-address=127.0.0.1:${this.ports.replication}`,
        `--wsrep-provider-options=${providerOptions}`,
        '--wsrep-sst-method=rsync',
        `--wsrep-sst-receive-address=127.0.0.1:${this.ports.sst}`,
        ...position,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], ...user },
    );
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    });
    await this.waitUntilSynced();
  }

  /**
   * After a kill the saved state says nothing of the node's position: what `mariadbd --wsrep-recover` finds in
   * its InnoDB logs lets it rejoin by an incremental transfer from the others' cache instead of a full copy.
   */
  private recoveredPosition(dataDir: string): string[] {
    const recover = spawnSync(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        '--wsrep-recover',
        `--wsrep-provider=${PROVIDER}`,
        '--innodb-log-file-size=16M',
        `--socket=${join(this.dir, 'recover.sock')}`,
        `--pid-file=${join(this.dir, 'recover.pid')}`,
        '--skip-networking',
        `--log-error=${join(this.dir, 'recover.log')}`,
      ],
      { encoding: 'utf8', ...this.cluster.user },
    );
    const log = readFileSync(join(this.dir, 'recover.log'), 'utf8');
    const found = /Recovered position: ([0-9a-f-]+:-?\d+)/.exec(`${log}${recover.stderr}`);
    return found && !found[1].endsWith(':-1') ? [`--wsrep-start-position=${found[1]}`] : [];
  }

  /** kill -9: the node disappears without a word to the others. */
  async kill(): Promise<void> {
    if (!running(this.child)) return;
    this.child.kill('SIGKILL');
    await once(this.child, 'exit');
    this.killed = true;
  }

  /** The value of a wsrep status variable, as the node reports it now. */
  async status(name: string): Promise<string | undefined> {
    const connection = await createConnection({
      host: '127.0.0.1',
      port: this.ports.sql,
      user: 'root',
      connectTimeout: 2000,
    });
    try {
      const [rows] = await connection.query('SHOW GLOBAL STATUS LIKE ?', [name]);
      return (rows as { Value: string }[])[0]?.Value;
    } finally {
      await connection.end();
    }
  }

  private async waitUntilSynced(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!running(this.child)) throw new Error(`node ${this.index + 1} exited:\n${this.output}`);
      const state = await this.status('wsrep_local_state_comment').catch(() => undefined);
      if (state === 'Synced') return;
      if (Date.now() > deadline) throw new Error(`node ${this.index + 1} did not sync:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * A Galera cluster of the test's own: `size` mariadbd with the galera-4 provider, each with its own data
 * folder and free ports (SQL, replication, incremental and full state transfer), running as user `mysql`
 * when the tests run as root. `stop()` kills them by pid and removes their folders.
 */
export class GaleraCluster {
  readonly nodes: GaleraNode[] = [];
  readonly user = nodeUser();
  readonly name = `gym-test-${process.pid}-${Date.now().toString(36)}`;
  private readonly dir = mkdtempSync(join(tmpdir(), 'gym-galera-'));

  private constructor(readonly wsrepMode: string) {}

  /** `wsrepMode`: the nodes' `wsrep_mode`, REQUIRED_PRIMARY_KEY unless told otherwise. */
  static async start(size = 3, wsrepMode = 'REQUIRED_PRIMARY_KEY'): Promise<GaleraCluster> {
    const cluster = new GaleraCluster(wsrepMode);
    try {
      await cluster.create(size);
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  private async create(size: number): Promise<void> {
    if (this.user) chownSync(this.dir, this.user.uid, this.user.gid);
    const used = new Set<number>();
    const port = async () => {
      for (;;) {
        const candidate = await freePort();
        if (!used.has(candidate)) {
          used.add(candidate);
          return candidate;
        }
      }
    };
    for (let index = 0; index < size; index++) {
      const ports = { sql: await port(), replication: await port(), ist: await port(), sst: await port() };
      this.nodes.push(new GaleraNode(index, ports, join(this.dir, `node${index + 1}`), this));
    }
    await this.nodes[0].start(true);
    // One joiner at a time, each with a full state transfer (rsync) from a synced node.
    for (const node of this.nodes.slice(1)) await node.start(false);
  }

  url(node: number, database: string): string {
    return this.nodes[node].url(database);
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) await node.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
