// CPU time of the processes a bench measures, read from /proc (user + system), so that a figure can be given
// per request or per delivery: the service (or reference) process, MariaDB and Redis.
import { readFileSync } from 'node:fs';
import type { Connection } from 'mysql2/promise';
import Redis from 'ioredis';

const TICK_US = 1_000_000 / 100; // USER_HZ is 100 on Linux

/** CPU time used so far by a process, in µs (10 ms resolution). */
export function cpuMicros(pid: number): number {
  const { user, system } = cpuSplit(pid);
  return user + system;
}

/** CPU time used so far by a process in user space and in the kernel, in µs (10 ms resolution). */
export function cpuSplit(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * TICK_US, system: Number(fields[12]) * TICK_US };
}

/** The pid of the MariaDB server behind `db`, from its pid file (so the server must run on this machine). */
export async function mariadbPid(db: Connection): Promise<number> {
  const [[row]] = (await db.query('SELECT @@pid_file AS file')) as unknown as [[{ file: string }]];
  return Number(readFileSync(row.file, 'utf8').trim());
}

/** The pids of the MariaDB server behind `db` and of the Redis server at `redisUrl`. */
export async function serverPids(
  db: Connection,
  redisUrl: string,
): Promise<{ mariadb?: number; redis?: number }> {
  const pids: { mariadb?: number; redis?: number } = {};
  try {
    pids.mariadb = await mariadbPid(db);
  } catch {
    // not readable here: MariaDB's CPU is left out
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    pids.redis = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
  } catch {
    // Redis CPU left out
  } finally {
    redis.disconnect();
  }
  return pids;
}

/** The machine's CPU time so far, all cores, in clock ticks: in all, and idle (waiting for I/O counted idle). */
function machineTicks(): { total: number; idle: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = fields.map(Number);
  return { total: ticks.reduce((a, b) => a + b, 0), idle: ticks[3] + ticks[4] };
}

/** CPU used by each named process between start() and stop(), in µs. */
export class CpuMeter {
  private startedAt: Record<string, number> = {};

  constructor(private readonly pids: Record<string, number | undefined>) {}

  private systemAtStart: Record<string, number> = {};
  private machineAtStart = machineTicks();

  start(): this {
    this.startedAt = this.read();
    this.machineAtStart = machineTicks();
    this.systemAtStart = Object.fromEntries(
      Object.entries(this.pids).flatMap(([name, pid]) =>
        pid && pid !== process.pid ? [[name, cpuSplit(pid).system]] : [],
      ),
    );
    return this;
  }

  stop(): Record<string, number> {
    const now = this.read();
    return Object.fromEntries(
      Object.entries(now).map(([name, us]) => [name, us - (this.startedAt[name] ?? 0)]),
    );
  }

  /** The share of the machine's CPU time (all cores) left idle since start(), 0 to 1. */
  machineIdleSince(): number {
    const now = machineTicks();
    const total = now.total - this.machineAtStart.total;
    return total > 0 ? (now.idle - this.machineAtStart.idle) / total : 0;
  }

  /** The kernel's part of each process's CPU since start(), in µs. */
  systemSince(): Record<string, number> {
    return Object.fromEntries(
      Object.entries(this.systemAtStart).flatMap(([name, us]) => {
        try {
          return [[name, cpuSplit(this.pids[name] as number).system - us]];
        } catch {
          return [];
        }
      }),
    );
  }

  private read(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids)) {
      if (!pid) continue;
      try {
        out[name] =
          pid === process.pid ? process.cpuUsage().user + process.cpuUsage().system : cpuMicros(pid);
      } catch {
        // the process has gone
      }
    }
    return out;
  }
}

/**
 * MariaDB's CPU per call of each kind (`pid`: the server's): `calls` calls shared by `connections` at once, the
 * n-th call made by `kinds[kind](connection, n)`; `rounds` rounds after a warm-up one (which warms the server's
 * caches and statements up and is not counted), the kinds in turn. Answers µs per call, by kind, one per round.
 */
export async function serverCpuPerCall(
  pid: number,
  connections: readonly Connection[],
  kinds: Record<string, (connection: Connection, n: number) => Promise<unknown>>,
  calls: number,
  rounds: number,
): Promise<Map<string, number[]>> {
  const results = new Map<string, number[]>();
  for (let round = 0; round <= rounds; round++) {
    for (const [name, call] of Object.entries(kinds)) {
      let next = 0;
      const before = cpuMicros(pid);
      await Promise.all(
        connections.map(async (connection) => {
          while (next < calls) await call(connection, next++);
        }),
      );
      const perCall = Math.round((cpuMicros(pid) - before) / calls);
      if (round > 0) results.set(name, [...(results.get(name) ?? []), perCall]);
    }
  }
  return results;
}
