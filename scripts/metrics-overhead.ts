/**
 * What the request metrics add to each request: the histogram sample every request records, and the check-in
 * outcome a check-in route adds. Run with `npx ts-node -T scripts/metrics-overhead.ts`.
 */
import { Metrics } from '../src/common/metrics/metrics';

const metrics = new Metrics();
const N = 1_000_000;
const ROUTES = ['/v1/track_usages', '/v1/track_usages/validate', '/partner_app/v1/validate', '/health'];

function measure(label: string, perRequest: (i: number) => void): void {
  for (let i = 0; i < 100_000; i++) perRequest(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) perRequest(i);
  const nanoseconds = Number(process.hrtime.bigint() - started) / N;
  console.log(`${label}: ${nanoseconds.toFixed(0)} ns per request`);
}

measure('empty loop', () => {});
measure('request histogram', (i) =>
  metrics.observeRequest('POST', ROUTES[i & 3], i % 7 === 0 ? 422 : 204, 0.0042),
);
measure('request histogram + check-in outcome', (i) => {
  metrics.observeRequest('POST', ROUTES[i & 3], 204, 0.0042);
  metrics.countCheckIn('register', i % 7 === 0 ? 'already_used' : 'success');
});
