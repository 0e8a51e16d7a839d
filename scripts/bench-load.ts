// A child of `npm run bench`: drives one list of requests (member check-ins, their confirmations) through
// the reference bench's autocannon, so that these runs are measured by the same client as load.js measures
// validate and register. Usage: ts-node -T bench-load.ts SPEC.json; prints one JSON line like load.js does, and
// with `collect` writes every answer's status and body to SPEC.json.out.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

export interface LoadSpec {
  benchDir: string;
  base: string;
  connections: number;
  headers: Record<string, string>;
  requests: { path: string; body?: string }[];
  collect?: boolean;
}

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  duration: number;
  start: Date;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

function main(): void {
  const file = process.argv[2];
  const spec = JSON.parse(readFileSync(file, 'utf8')) as LoadSpec;
  const autocannon = createRequire(resolve(spec.benchDir, 'package.json'))('autocannon') as Autocannon;
  const answers: { status: number; body: string }[] = [];
  let next = 0;
  let lastResponseAt = 0;
  autocannon(
    {
      url: spec.base,
      connections: spec.connections,
      amount: spec.requests.length,
      requests: [
        {
          method: 'POST',
          headers: spec.headers,
          setupRequest: (request: Record<string, unknown>) => {
            const item = spec.requests[next++ % spec.requests.length];
            return { ...request, path: item.path, body: item.body ?? '' };
          },
          onResponse: (status: number, body: string) => {
            lastResponseAt = Date.now();
            if (spec.collect) answers.push({ status, body });
          },
        },
      ],
    },
    (error, result) => {
      if (error) throw error;
      if (spec.collect) writeFileSync(`${file}.out`, JSON.stringify(answers));
      // `amount` runs end early, so rps is the count over the run's own time, not autocannon's per-second
      // mean; and not over its `duration` either, which runs on to its next one-second sample after the last
      // answer (3,200 answers in 3.1 s read as 4.02 s).
      const ok = result['2xx'];
      const seconds = (lastResponseAt - result.start.getTime()) / 1000;
      console.log(
        JSON.stringify({
          rps: (ok + result.non2xx) / seconds,
          p50: result.latency.p50,
          p99: result.latency.p99,
          ok,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          last: 0,
        }),
      );
    },
  );
}

main();
