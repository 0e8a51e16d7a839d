import { randomUUID } from 'node:crypto';
import { DeliveryRecorder, ReportedAttempt } from '../src/modules/webhooks/delivery/delivery-recorder';
import { createTestApp, TestApp, truncateAll } from './support/test-app';

/**
 * The breaker as the outcomes of a batch write it: it opens for its full time from when the batch's answers are in
 * (a batch of timeouts ends WEBHOOK_TIMEOUT_MS after it began), its last failure is when that attempt ended, and a
 * success reports the breaker closed only when it had opened.
 */
describe('delivery outcomes and the breaker (e2e)', () => {
  let t: TestApp;
  let recorder: DeliveryRecorder;
  // A day ahead: the app's own poller, on real time, leaves these rows alone.
  const began = new Date(Date.now() + 86_400_000);
  const later = (ms: number) => new Date(began.getTime() + ms);
  const timeoutMs = 15_000;
  let subscriptionId: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp();
    recorder = t.app.get(DeliveryRecorder);
  });
  beforeEach(async () => {
    await truncateAll(t.dataSource);
    subscriptionId = randomUUID();
  });
  afterAll(() => t.close());

  async function waiting(): Promise<string> {
    const id = `dlv_recorder_${++sequence}`;
    await t.dataSource.query(
      `INSERT INTO webhook_deliveries
         (id, event_id, event_type, payload, subscription_id, place_id, url, status, attempts, next_attempt_at,
          created_at)
       VALUES (?, ?, 'CHECK_IN_CREATED', '{}', ?, ?, 'https://hooks.example.com/in', 'pending', 0, ?, ?)`,
      [id, `evt_recorder_${sequence}`, subscriptionId, randomUUID(), began, began],
    );
    return id;
  }

  async function breakerWith(failures: number, openedAt: Date | null): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, opened_at, open_until)
       VALUES (?, ?, ?, ?, ?)`,
      [subscriptionId, failures, openedAt ? 1 : 0, openedAt, openedAt],
    );
  }

  function attempt(deliveryId: string, ok: boolean): ReportedAttempt {
    return {
      deliveryId,
      redeliveries: 0,
      attempts: 0,
      ok,
      status: ok ? 'delivered' : 'queued',
      nextAttemptAt: ok ? null : later(timeoutMs + 5_000),
      attempt: {
        number: 1,
        url: 'https://hooks.example.com/in',
        statusCode: ok ? 200 : null,
        durationMs: ok ? 20 : timeoutMs,
        responseBody: null,
        error: ok ? null : `timed out after ${timeoutMs} ms`,
        createdAt: began,
      },
    };
  }

  function record(attempts: ReportedAttempt[], now: Date, fenced?: { runId: string }) {
    return recorder.record(
      [
        {
          subscriptionId,
          runId: fenced?.runId ?? 'run.recorder',
          attempts,
          mayBeFailing: true,
          breakerThreshold: 5,
          breakerOpenSeconds: 30,
          claimNext: 0,
          ...(fenced && { fenced: true }),
        },
      ],
      { now, leaseUntil: later(60_000) },
    );
  }

  async function heldBy(runId: string, until: Date): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO webhook_endpoint_states (subscription_id, failures, opens, run_id, run_until)
       VALUES (?, 0, 0, ?, ?)`,
      [subscriptionId, runId, until],
    );
  }

  async function delivery(id: string) {
    const [row] = await t.dataSource.query(
      `SELECT d.status, d.attempts, (SELECT COUNT(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS logged
       FROM webhook_deliveries d WHERE d.id = ?`,
      [id],
    );
    return { ...row, logged: Number(row.logged) } as { status: string; attempts: number; logged: number };
  }

  async function breaker() {
    const [row] = await t.dataSource.query(
      `SELECT failures, open_until AS openUntil, opened_at AS openedAt, last_failure_at AS lastFailureAt
       FROM webhook_endpoint_states WHERE subscription_id = ?`,
      [subscriptionId],
    );
    return row as { failures: number; openUntil: Date | null; openedAt: Date | null; lastFailureAt: Date };
  }

  it('a fenced write of a run that lost its endpoint writes nothing: the run that holds it now has the attempt', async () => {
    await heldBy('run.next/b', later(30_000));
    const id = await waiting();
    const [recorded] = await record([attempt(id, true)], later(100), { runId: 'run.first/a' });
    expect(recorded).toMatchObject({ recorded: [false], next: [], heldUntil: null });
    expect(await delivery(id)).toEqual({ status: 'pending', attempts: 0, logged: 0 });
  });

  it('a fenced write of the run that holds the endpoint, its hold ended by the clock, writes and renews it', async () => {
    // Past its end but not yet handed to another run: the renewal locks the row, the poller waits for the commit.
    await heldBy('run.first/a', later(-1000));
    const id = await waiting();
    const [recorded] = await record([attempt(id, true)], later(100), { runId: 'run.first/a' });
    expect(recorded.recorded).toEqual([true]);
    expect(await delivery(id)).toEqual({ status: 'delivered', attempts: 1, logged: 1 });
    const [state] = await t.dataSource.query(
      'SELECT run_until AS runUntil FROM webhook_endpoint_states WHERE subscription_id = ?',
      [subscriptionId],
    );
    expect(state.runUntil).toEqual(later(60_000));
  });

  it('a batch of timeouts opens the breaker for its full time from when its answers are in', async () => {
    await breakerWith(4, null);
    const answersIn = later(timeoutMs + 40);
    const [recorded] = await record([attempt(await waiting(), false)], answersIn);
    expect(recorded.recorded).toEqual([true]);
    expect(recorded.breaker).toMatchObject({ justOpened: true, openUntil: later(timeoutMs + 40 + 30_000) });
    expect(await breaker()).toMatchObject({
      failures: 5,
      openUntil: later(timeoutMs + 40 + 30_000),
      openedAt: answersIn,
      // The failure happened when the attempt ended, not when it began.
      lastFailureAt: later(timeoutMs),
    });
  });

  it('a success reports the breaker closed when it had opened', async () => {
    await breakerWith(5, later(-1000));
    const [recorded] = await record([attempt(await waiting(), true)], later(100));
    expect(recorded.closed).toBe(true);
    expect(await breaker()).toMatchObject({ failures: 0, openUntil: null, openedAt: null });
  });

  it('a success after failures below the threshold forgets them, without reporting a breaker closed', async () => {
    await breakerWith(2, null);
    const [recorded] = await record([attempt(await waiting(), true)], later(100));
    expect(recorded.closed).toBe(false);
    expect((await breaker()).failures).toBe(0);
  });
});
