// `npx ts-node -T scripts/delivery-cost.ts` (not in CI): MariaDB's CPU per delivery of the bookkeeping of a
// runner that goes on with its endpoint (batches of 64, one connection, no HTTP), for the statements of each
// design, against the reference relay's two statements on its outbox table. Read from /proc. Runs on copies of
// the delivery tables of `gym_webhook_bench` (run `npm run bench:webhooks` first) in a scratch database of its
// own, dropped at the end; 12,800 deliveries per design, ROUNDS (3) rounds, the order of the designs rotating.
//   rows marked:     the layout before (each claimed row marked `queued_at`): the outcome's moves guarded by the
//                    mark and the attempt, attempts logged; the next claim (`FOR UPDATE SKIP LOCKED`), its mark
//                    and its work read (the rows and their subscription)
//   endpoint held:   now: the outcome's moves guarded by the attempt, attempts logged, the run's hold on its
//                    endpoint renewed, its next batch read with its work (a plain read, nothing locked or marked)
//   counters read:   as endpoint held, but the next batch read without its work: each row's id and counters
//                    (no payload, no subscription join), the subscription read once
//   ids read:        as endpoint held, but the next batch only its ids, from the endpoint index alone
//   handed over:     rows written already in flight (the process that wrote them sends them, their work in
//                    hand): no claim, no work read, only the outcome
//   reference relay: its claim of 64 outbox rows (with their bodies) and one UPDATE of `delivered_at`
// Each statement goes in a round trip of its own (the service packs its statements into two): the server's CPU
// per statement is what is compared, not the round trips, which cost the client. The server is found through
// its pid file, so it must run on this machine.
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mysql2/promise';
import { mysql } from './bench';
import { cpuMicros, mariadbPid } from './process-cpu';

const SOURCE = 'gym_webhook_bench';
const SCRATCH = 'gym_delivery_cost';
const DELIVERIES = 12_800;
const BATCH = 64;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SUBSCRIPTION = '11111111-1111-1111-1111-111111111111';
const URL_SENT = 'http://127.0.0.1:9/hooks';

type Design =
  'rows marked' | 'endpoint held' | 'counters read' | 'ids read' | 'handed over' | 'reference relay';
const DESIGNS: Design[] = [
  'rows marked',
  'endpoint held',
  'counters read',
  'ids read',
  'handed over',
  'reference relay',
];

/** The layout before: each claimed row marked in `queued_at`, the endpoint index over it. */
const MARKED_LAYOUT = `ALTER TABLE webhook_deliveries DROP INDEX IDX_webhook_deliveries_endpoint_due,
  ADD queued_at DATETIME(3) NULL,
  ADD INDEX IDX_webhook_deliveries_endpoint_due (subscription_id, queued_at, next_attempt_at)`;
const MARKED_CLAIM = `SELECT id, subscription_id, redeliveries, attempts FROM webhook_deliveries
  FORCE INDEX (IDX_webhook_deliveries_endpoint_due)
  WHERE subscription_id = ? AND queued_at IS NULL AND next_attempt_at <= ?
  ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED`;
/** The work of claimed rows, as the runner read it after marking them. */
const MARKED_WORK = `SELECT d.id, d.status, d.attempts, d.redeliveries, d.queued_at IS NOT NULL AS inQueue,
    d.subscription_id, d.event_id, d.payload, d.request_id, s.url, s.secret_ciphertext, s.format
  FROM webhook_deliveries d LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE d.id IN (?)`;
/** A run's next batch with its work, as DeliveriesRepository.claimStatement reads it. */
const HELD_CLAIM = `SELECT d.id, d.status, d.attempts, d.redeliveries, d.subscription_id, d.event_id, d.payload,
    d.request_id, s.url, s.secret_ciphertext, s.format
  FROM webhook_deliveries d FORCE INDEX (IDX_webhook_deliveries_endpoint_due)
  LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id
  WHERE d.subscription_id = ? AND d.next_attempt_at <= ? AND d.status IN ('pending', 'queued')
  ORDER BY d.next_attempt_at LIMIT ?`;

/** The next batch without its work: what a runner holding the rows' work in memory would still read. */
const LIGHT_CLAIMS: Partial<Record<Design, string>> = {
  'counters read': `SELECT d.id, d.status, d.attempts, d.redeliveries
    FROM webhook_deliveries d FORCE INDEX (IDX_webhook_deliveries_endpoint_due)
    WHERE d.subscription_id = ? AND d.next_attempt_at <= ? AND d.status IN ('pending', 'queued')
    ORDER BY d.next_attempt_at LIMIT ?`,
  'ids read': `SELECT d.id FROM webhook_deliveries d FORCE INDEX (IDX_webhook_deliveries_endpoint_due)
    WHERE d.subscription_id = ? AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?`,
};

async function seed(db: Connection, design: Design): Promise<void> {
  await db.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
  await db.query(`CREATE DATABASE ${SCRATCH}`);
  await db.query(`USE ${SCRATCH}`);
  for (const table of [
    'webhook_deliveries',
    'webhook_attempts',
    'webhook_endpoint_states',
    'webhook_subscriptions',
  ])
    await db.query(`CREATE TABLE ${table} LIKE \`${SOURCE}\`.${table}`);
  if (design === 'rows marked') await db.query(MARKED_LAYOUT);
  await db.query(
    "INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, run_id, run_until) VALUES (?, 0, 0, 'run', NOW(3) + INTERVAL 1 HOUR)",
    [SUBSCRIPTION],
  );
  await db.query(
    `INSERT INTO webhook_subscriptions SELECT * FROM \`${SOURCE}\`.webhook_subscriptions LIMIT 1`,
  );
  await db.query('UPDATE webhook_subscriptions SET id = ?', [SUBSCRIPTION]);
  await db.query(`CREATE TABLE outbox (id BIGINT PRIMARY KEY AUTO_INCREMENT, type VARCHAR(64), payload JSON,
    created_at DATETIME(3), delivered_at DATETIME(3) NULL, KEY (delivered_at, id))`);
  await db.query(`INSERT INTO outbox (type, payload, created_at)
    SELECT 'checkin.created', JSON_OBJECT('id', seq, 'padding', REPEAT('x', 600)), NOW(3) FROM seq_1_to_${DELIVERIES}`);
  const payload = JSON.stringify({ type: 'CHECK_IN_CREATED', padding: 'x'.repeat(600) });
  const due = new Date(Date.now() - 1000);
  const hex = () => randomBytes(16).toString('hex');
  for (let i = 0; i < DELIVERIES; i += 500) {
    const rows = Array.from({ length: Math.min(500, DELIVERIES - i) }, () => [
      `dlv_${hex()}`,
      `evt_${hex()}`,
      'CHECK_IN_CREATED',
      payload,
      'req',
      SUBSCRIPTION,
      '22222222-2222-2222-2222-222222222222',
      URL_SENT,
      'pending',
      0,
      0,
      due,
      due,
    ]);
    await db.query(
      `INSERT INTO webhook_deliveries (id, event_id, event_type, payload, request_id, subscription_id, place_id, url,
         status, attempts, redeliveries, next_attempt_at, created_at) VALUES ?`,
      [rows],
    );
  }
}

/** The outcome of a batch of first attempts, all answered 204: moved, and their attempts logged. */
async function recordOutcomes(
  db: Connection,
  ids: string[],
  at: Date,
  layout: 'marked' | 'held',
): Promise<void> {
  const [moved] = (await db.query(
    `UPDATE webhook_deliveries SET attempts = 1, url = ?, status = 'delivered', last_status_code = 204,
       last_error = NULL, last_attempt_at = ?, next_attempt_at = NULL${layout === 'marked' ? ', queued_at = NULL' : ''},
       delivered_at = ?
     WHERE id IN (?) AND redeliveries = 0 AND attempts = 0 AND ${layout === 'marked' ? 'queued_at IS NOT NULL' : "status IN ('pending', 'queued')"}`,
    [URL_SENT, at, at, ids],
  )) as unknown as [{ affectedRows: number }];
  if (moved.affectedRows !== ids.length) throw new Error(`${moved.affectedRows} of ${ids.length} rows moved`);
  await db.query(
    `INSERT INTO webhook_attempts (delivery_id, number, url, status_code, duration_ms, response_body, error, created_at)
     VALUES ?`,
    [ids.map((id) => [id, 1, URL_SENT, 204, 3, null, null, at])],
  );
}

/** One design's deliveries, batch after batch, until none is left; the server's CPU per delivery. */
async function run(db: Connection, design: Design, pid: number): Promise<number> {
  await db.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
  let handed: string[] = [];
  if (design === 'handed over') {
    // Written in flight, as the register's transaction would write them (not measured).
    const [rows] = (await db.query(
      'SELECT id FROM webhook_deliveries ORDER BY created_at, id',
    )) as unknown as [{ id: string }[]];
    handed = rows.map((row) => row.id);
  }
  const started = cpuMicros(pid);
  let delivered = 0;
  let claimed: string[] = [];
  for (;;) {
    const now = new Date();
    await db.query('START TRANSACTION');
    if (design === 'handed over') {
      const batch = handed.slice(delivered, delivered + BATCH);
      if (batch.length > 0) await recordOutcomes(db, batch, now, 'held');
      await db.query('COMMIT');
      if (batch.length === 0) break;
      delivered += batch.length;
      continue;
    }
    if (design === 'reference relay') {
      const [rows] = (await db.query(
        'SELECT id, type, payload FROM outbox WHERE delivered_at IS NULL ORDER BY id LIMIT 64 FOR UPDATE SKIP LOCKED',
      )) as unknown as [{ id: number }[]];
      if (rows.length > 0)
        await db.query('UPDATE outbox SET delivered_at = NOW(3) WHERE id IN (?)', [
          rows.map((row) => row.id),
        ]);
      await db.query('COMMIT');
      if (rows.length === 0) break;
      delivered += rows.length;
      continue;
    }
    if (design === 'endpoint held' || design in LIGHT_CLAIMS) {
      if (claimed.length > 0) {
        await recordOutcomes(db, claimed, now, 'held');
        delivered += claimed.length;
      }
      await db.query(
        'UPDATE webhook_endpoint_states SET run_until = ? WHERE subscription_id = ? AND run_id = ?',
        [new Date(now.getTime() + 20_000), SUBSCRIPTION, 'run'],
      );
      const light = LIGHT_CLAIMS[design];
      if (light)
        await db.query('SELECT url, secret_ciphertext, format FROM webhook_subscriptions WHERE id = ?', [
          SUBSCRIPTION,
        ]);
      const [rows] = (await db.query(light ?? HELD_CLAIM, [SUBSCRIPTION, now, BATCH])) as unknown as [
        { id: string }[],
      ];
      claimed = rows.map((row) => row.id);
      await db.query('COMMIT');
      if (claimed.length === 0) break;
      continue;
    }
    // A batch of successes of an endpoint without failures writes nothing to its breaker.
    if (claimed.length > 0) {
      await recordOutcomes(db, claimed, now, 'marked');
      delivered += claimed.length;
    }
    const [rows] = (await db.query(MARKED_CLAIM, [SUBSCRIPTION, now, BATCH])) as unknown as [
      { id: string }[],
    ];
    claimed = rows.map((row) => row.id);
    if (claimed.length > 0) {
      await db.query('UPDATE webhook_deliveries SET queued_at = ? WHERE id IN (?)', [now, claimed]);
      await db.query(MARKED_WORK, [claimed]);
    }
    await db.query('COMMIT');
    if (claimed.length === 0) break;
  }
  if (delivered !== DELIVERIES) throw new Error(`${design}: ${delivered} of ${DELIVERIES} delivered`);
  return Math.round((cpuMicros(pid) - started) / delivered);
}

async function main(): Promise<void> {
  const db = await mysql();
  const pid = await mariadbPid(db);
  const results = new Map<Design, number[]>(DESIGNS.map((design) => [design, []]));
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const design of [
        ...DESIGNS.slice(round % DESIGNS.length),
        ...DESIGNS.slice(0, round % DESIGNS.length),
      ]) {
        await seed(db, design);
        // Let the inserts' background work settle before measuring.
        await new Promise((resolve) => setTimeout(resolve, 500));
        results.get(design)?.push(await run(db, design, pid));
      }
  } finally {
    await db.query(`DROP DATABASE IF EXISTS ${SCRATCH}`);
    await db.end();
  }
  console.log(`MariaDB CPU per delivery, batches of ${BATCH}, ${ROUNDS} rounds:`);
  for (const [design, figures] of results)
    console.log(`  ${design.padEnd(16)} ${Math.min(...figures)}-${Math.max(...figures)} µs`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
