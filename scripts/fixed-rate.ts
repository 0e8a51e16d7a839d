// A load at a fixed rate through the reference bench's autocannon (the client `npm run bench` measures with),
// shared by the scripts that read the CPU per request at a given rate (bench-cpu.ts, reference-cpu.ts).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { BENCH_DIR, CONNECTIONS } from './bench';

const benchRequire = createRequire(resolve(BENCH_DIR, 'package.json'));
type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: { '2xx': number; non2xx: number }) => void,
) => unknown;
const autocannon = benchRequire('autocannon') as Autocannon;

/** The CPF of the n-th beneficiary the benches seed (the reference's numbering, which the service's seed follows). */
export const seededCpf = (benchRequire('./cpf') as { cpf: (n: number) => string }).cpf;

/**
 * `rate` POSTs a second to `url` for `seconds` over the benches' CONNECTIONS, with the key in `x-api-key` and
 * `body()` as each request's JSON body; resolves with the count of 2xx and other answers.
 */
export function atFixedRate(
  url: string,
  key: string,
  rate: number,
  seconds: number,
  body: () => unknown,
): Promise<{ '2xx': number; non2xx: number }> {
  return new Promise((done, fail) =>
    autocannon(
      {
        url,
        duration: seconds,
        connections: CONNECTIONS,
        overallRate: rate,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            setupRequest: (request: Record<string, unknown>) => ({
              ...request,
              body: JSON.stringify(body()),
            }),
          },
        ],
      },
      (error, result) => (error ? fail(error) : done(result)),
    ),
  );
}
