// `npx ts-node -T scripts/confirm-cpu.ts` (not in CI; run `npx nest build` first): the CPU a member check-in's
// confirmation costs, at its `endpoint`, by its token (a register with the gym's key) and through the
// Wellhub-compatible `POST /access/v1/validate`, measured side by side in one process (BENCH_SERVICE_MAIN: another
// build's `main.js`). `npm run bench` compares the routes' rates, which move with the machine;
// the CPU per request of each, measured in alternating rounds, says which route costs more and by how much.
//   BENCH_CONFIRM_COUNT confirmations of each kind per round (3000), BENCH_CONFIRM_ROUNDS (3)
//   BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR" profiles the service (every kind measured in one profile;
//   BENCH_CONFIRM_KINDS=endpoint, say, measures that kind alone)
// Each round creates 3 x COUNT member check-ins at the bench gym (subscribed as in `npm run bench`, in both
// formats), waits for their events, then confirms a third at their endpoint, a third by token and a third by
// member number, the order rotating between rounds, beside COUNT registers of members with no check-in at the
// same gym; each part is measured until its events are at the receiver.
import {
  drain,
  GYM_CODE,
  loadList,
  log,
  MEMBER_TOKEN,
  mysql,
  Receiver,
  runBench,
  SERVICE_DB,
  seedService,
  startService,
  subscribeWellhubFormat,
} from './bench';
import { readFileSync } from 'node:fs';
import { cpfFromBase } from '../src/common/domain/cpf';
import { CpuMeter, serverPids } from './process-cpu';

const COUNT = Number(process.env.BENCH_CONFIRM_COUNT ?? 3000);
const ROUNDS = Number(process.env.BENCH_CONFIRM_ROUNDS ?? 3);
/** The kinds measured (BENCH_CONFIRM_KINDS, comma-separated): all four by default; one alone to profile it. */
const KINDS = (process.env.BENCH_CONFIRM_KINDS ?? 'endpoint,token,wellhub,register').split(',');

async function main(): Promise<void> {
  const receiver = new Receiver();
  const receiverUrl = await receiver.listen();
  const service = await startService();
  const pool = 4 * COUNT * ROUNDS;
  log(`seeding the service with ${pool} beneficiaries`);
  const { placeKey } = await seedService(receiverUrl, pool);
  const gymId = await subscribeWellhubFormat(receiverUrl, placeKey);
  const db = await mysql(SERVICE_DB);
  const servers = await serverPids(db, process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const lines = new Map<string, string[]>();
  for (let round = 0; round < ROUNDS; round++) {
    const creations = Array.from({ length: 3 * COUNT }, (_, i) => ({
      path: '/member/v1/check_ins',
      body: JSON.stringify({
        type: 'cpf',
        identifier: cpfFromBase(100000000 + round * 4 * COUNT + i),
        service_provider_code: GYM_CODE,
      }),
    }));
    const created = (await loadList(creations, { authorization: `Bearer ${MEMBER_TOKEN}` }, true)).answers
      .filter((answer) => answer.status === 201)
      .map((answer) => JSON.parse(answer.body) as { id: string; member_number: string; token: string });
    await drain(receiver, db);
    const parts = {
      endpoint: {
        requests: created
          .slice(0, COUNT)
          .filter((checkIn) => receiver.endpoints.has(checkIn.id))
          .map((checkIn) => ({ path: receiver.endpoints.get(checkIn.id) as string })),
        headers: {},
      },
      token: {
        requests: created.slice(COUNT, 2 * COUNT).map((checkIn) => ({
          path: '/v1/track_usages',
          body: JSON.stringify({
            data: {
              type: 'track_usage',
              attributes: { type: 'token', identifier: checkIn.token, service_provider_code: GYM_CODE },
            },
          }),
        })),
        headers: { 'x-api-key': placeKey },
      },
      wellhub: {
        requests: created.slice(2 * COUNT).map((checkIn) => ({
          path: '/access/v1/validate',
          body: JSON.stringify({ gympass_id: checkIn.member_number }),
        })),
        headers: { authorization: `Bearer ${placeKey}`, 'x-gym-id': gymId },
      },
      // The service's own register at the same gym, of members with no check-in: what confirmations are held to.
      register: {
        requests: Array.from({ length: COUNT }, (_, i) => ({
          path: '/v1/track_usages',
          body: JSON.stringify({
            data: {
              type: 'track_usage',
              attributes: {
                type: 'cpf',
                identifier: cpfFromBase(100000000 + round * 4 * COUNT + 3 * COUNT + i),
                service_provider_code: GYM_CODE,
              },
            },
          }),
        })),
        headers: { 'x-api-key': placeKey },
      },
    };
    const kinds = KINDS.filter((kind) => kind in parts) as (keyof typeof parts)[];
    for (const kind of [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)]) {
      const { requests, headers } = parts[kind];
      const syscalls = syscallsOf(service.pid);
      const meter = new CpuMeter({
        service: service.pid,
        mariadb: servers.mariadb,
        redis: servers.redis,
      }).start();
      const { result } = await loadList(requests, headers);
      await drain(receiver, db);
      const used = meter.stop();
      const [reads, writes] = syscallsOf(service.pid).map((count, i) => count - syscalls[i]);
      const per = (name: string) => Math.round((used[name] ?? 0) / Math.max(result.ok, 1));
      const each = (count: number) => (count / Math.max(result.ok, 1)).toFixed(1);
      const line = `${per('service')} + ${per('mariadb')} + ${per('redis')} µs, ${each(reads)} reads and ${each(writes)} writes of the process (${result.ok} 2xx, ${result.non2xx} non-2xx, ${Math.round(result.rps)} rps)`;
      console.log(`round ${round + 1} ${kind}: ${line}`);
      lines.set(kind, [...(lines.get(kind) ?? []), line]);
    }
  }
  console.log('\nCPU per confirmation, process + MariaDB + Redis:');
  for (const [kind, kept] of lines) console.log(`  ${kind.padEnd(9)} ${kept.join('  |  ')}`);
  await db.end();
  receiver.close();
}

/** The read and write system calls the process `pid` has made (its /proc/PID/io). */
function syscallsOf(pid: number | undefined): [number, number] {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return [Number(/syscr: (\d+)/.exec(io)?.[1]), Number(/syscw: (\d+)/.exec(io)?.[1])];
}

runBench(main);
