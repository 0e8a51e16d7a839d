/**
 * What hostile bodies cost the service: for each, the answer, the service's CPU time per request (read from
 * /proc, so a loaded machine slows it down but does not inflate it) and the longest wait of a `GET
 * /health/live` sent every 10 ms meanwhile. Starts the service (through ts-node) on a free port with a scratch
 * database of its own, which it drops at the end. Linux only (/proc). Run with
 * `npx ts-node -T scripts/hostile-bodies.ts`; `SERVICE_ROOT=<another checkout>` measures that checkout's code.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

const ROOT = process.env.SERVICE_ROOT ?? join(__dirname, '..');
const DATABASE = 'gym_hostile_bodies';
const ADMIN = 'Bearer dev-admin-token-change-me';
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux): CPU time is read to 10 ms. */
const TICKS = 100;

interface Case {
  name: string;
  path: string;
  body: string;
  auth?: string;
  /** Requests sent at once. */
  atOnce: number;
}

const flatObject = (fields: number) =>
  `{${Array.from({ length: fields }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;

function cpf(base: number): string {
  const digits = String(base).padStart(9, '0').split('').map(Number);
  const check = (ds: number[]) => {
    const sum = ds.reduce((total, d, i) => total + d * (ds.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const first = check(digits);
  return [...digits, first, check([...digits, first])].join('');
}

const CASES: Case[] = [
  {
    name: 'bulk, flat object of 100,000 fields',
    path: '/admin/beneficiaries/bulk',
    body: flatObject(100_000),
    auth: ADMIN,
    atOnce: 1,
  },
  {
    name: 'bulk, 1,000,000 empty objects',
    path: '/admin/beneficiaries/bulk',
    body: `{"beneficiaries":[${Array(1_000_000).fill('{}').join(',')}]}`,
    auth: ADMIN,
    atOnce: 1,
  },
  {
    name: 'bulk, 10,000 valid rows',
    path: '/admin/beneficiaries/bulk',
    body: JSON.stringify({
      beneficiaries: Array.from({ length: 10_000 }, (_, i) => ({
        cpf: cpf(300_000_000 + i),
        name: `Pessoa ${i}`,
        email: `p${i}@example.com`,
        benefit_plan_code: 'HOSTILE',
      })),
    }),
    auth: ADMIN,
    atOnce: 1,
  },
  {
    name: 'POST /partner/auth, 9,000 fields, 20 at once',
    path: '/partner/auth',
    body: flatObject(9_000),
    atOnce: 20,
  },
  {
    name: 'POST /account/session, 9,000 fields, 20 at once',
    path: '/account/session',
    body: flatObject(9_000),
    atOnce: 20,
  },
];

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

function send(port: number, method: string, path: string, body?: string, auth?: string) {
  return new Promise<{ status: number; label?: string; ms: number }>((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: { 'content-type': 'application/json', ...(auth && { authorization: auth }) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            label: /"label":"([^"]+)"/.exec(text)?.[1],
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function start(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join(ROOT, 'src', 'main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATABASE_URL: `mysql://root@127.0.0.1:3306/${DATABASE}`,
        QUEUE_PREFIX: DATABASE,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let waited = 0; !output.includes('listening'); waited += 100) {
    if (child.exitCode !== null || waited > 60_000) throw new Error(`the service did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

async function measure(port: number, pid: number, hostile: Case) {
  let done = false;
  let longestLive = 0;
  const probe = (async () => {
    while (!done) {
      longestLive = Math.max(longestLive, (await send(port, 'GET', '/health/live')).ms);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = cpuMs(pid);
  const answers = await Promise.all(
    Array.from({ length: hostile.atOnce }, () =>
      send(port, 'POST', hostile.path, hostile.body, hostile.auth),
    ),
  );
  const cpu = cpuMs(pid) - before;
  done = true;
  await probe;
  const outcomes = [...new Set(answers.map((a) => `${a.status} ${a.label ?? ''}`.trim()))].join(', ');
  return { outcomes, cpuPerRequest: cpu / hostile.atOnce, longestLive };
}

async function main(): Promise<void> {
  const port = await freePort();
  const service = await start(port);
  try {
    const pid = service.pid as number;
    await send(
      port,
      'POST',
      '/admin/benefit-plans',
      JSON.stringify({ code: 'HOSTILE', name: 'Hostile', tier: 1, monthly_visit_limit: null }),
      ADMIN,
    );
    // A first round warms the code up; the second is the one reported.
    for (const hostile of CASES) await measure(port, pid, hostile);
    console.log(
      `service: ${ROOT}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    console.log('| body | answer | service CPU per request | longest /health/live wait |');
    console.log('| --- | --- | --- | --- |');
    for (const hostile of CASES) {
      const { outcomes, cpuPerRequest, longestLive } = await measure(port, pid, hostile);
      console.log(
        `| ${hostile.name} (${(hostile.body.length / 1024).toFixed(0)} KB) | ${outcomes} | ${cpuPerRequest * hostile.atOnce < 10 ? `under ${Math.ceil(10 / hostile.atOnce)}` : cpuPerRequest.toFixed(0)} ms | ${longestLive.toFixed(0)} ms |`,
      );
    }
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    const connection = await createConnection({ host: '127.0.0.1', user: 'root' });
    await connection.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await connection.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
