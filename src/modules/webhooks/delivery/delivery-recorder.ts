import { Injectable } from '@nestjs/common';
import type { BatchTransaction, Statement } from '../../../database/statement-batch';
import { Transactions } from '../../../database/transactions';
import { awaitedOutcomes, breakerChange, breakerOpening } from './delivery-policy';
import { AttemptWrite, DeliveriesRepository, DeliveryWork, EndpointBreaker } from './deliveries.repository';

/** One attempt's outcome as a runner reports it: the attempt it made and what it writes. */
export interface ReportedAttempt extends AttemptWrite {
  ok: boolean;
}

/** The outcomes of one batch to one endpoint, in the order the answers arrived. */
export interface BatchReport {
  subscriptionId: string;
  /** The run that sent the batch, which holds the endpoint. */
  runId: string;
  attempts: ReportedAttempt[];
  /** The endpoint had failures before this batch: a success closes its breaker. */
  mayBeFailing: boolean;
  breakerThreshold: number;
  breakerOpenSeconds: number;
  /** When every outcome is a success: claim up to this many of the endpoint's next due attempts. */
  claimNext: number;
  /**
   * Written only while the run still holds its endpoint: the transaction first renews the hold (which only the
   * run's id can do) and so locks the endpoint's row until it commits; a run that no longer holds it writes
   * nothing. For a write tried again late in the hold (DeliveryRunner), when the poller may be about to hand the
   * endpoint to another run.
   */
  fenced?: boolean;
}

/** What recording a batch did. */
export interface BatchRecorded {
  /** For each reported attempt: written (false when its row had moved on). */
  recorded: boolean[];
  /** The endpoint's breaker after the batch's failures. */
  breaker?: EndpointBreaker;
  /** The batch's success closed the endpoint's breaker, which had opened. */
  closed?: boolean;
  /** The endpoint's next due attempts, claimed for the runner with their work. */
  next: DeliveryWork[];
  /** Until when the run's renewed hold lasts; null when it was not renewed (a failure, stopping, or lost). */
  heldUntil: Date | null;
}

/** A batch's outcome found a row that no longer waits for its attempt (see DeliveryRecorder.record). */
class AttemptsMovedOn extends Error {
  override readonly name = 'AttemptsMovedOn';
}

/**
 * Writes the outcomes of batches in one transaction (two round trips on one server: the deliveries moved, the
 * attempts logged, the breakers written, each run's hold on its endpoint renewed and its next attempts read with
 * their work; then COMMIT). Each move changes only the rows still waiting for that very attempt and counts them:
 * when every reported attempt is still awaited (the usual case), the counts say so and nothing is read first.
 * When one is not (a redelivery, a run whose hold ended, a copy of a job), the transaction is rolled back and
 * written again with the rows locked and read first, so that only the awaited attempts are logged. The next
 * attempts are a plain read of the endpoint's due rows, nothing marked: the run holds the endpoint (its row of
 * `webhook_endpoint_states`), so no other run reads them as its own, and a run whose renewal finds its hold gone
 * drops what it read. A transaction that loses a conflict runs again from its start (Transactions): the
 * receivers have their events, they must not get them twice.
 */
@Injectable()
export class DeliveryRecorder {
  constructor(
    private readonly repository: DeliveriesRepository,
    private readonly transactions: Transactions,
  ) {}

  async record(
    reports: readonly BatchReport[],
    lease: { now: Date; leaseUntil: Date },
  ): Promise<BatchRecorded[]> {
    const ids = reports.flatMap((report) => report.attempts.map((attempt) => attempt.deliveryId));
    const write = (readFirst: boolean) =>
      this.transactions.batch((tx) => this.write(tx, reports, lease, readFirst), {
        isolation: 'READ COMMITTED',
      });
    if (new Set(ids).size === ids.length && !reports.some((report) => report.fenced)) {
      try {
        return await write(false);
      } catch (error) {
        // Rolled back (as any transaction that throws): written again, the rows read first.
        if (!(error instanceof AttemptsMovedOn)) throw error;
      }
    }
    return write(true);
  }

  /**
   * The transaction of `record`. Not reading the rows first, it throws AttemptsMovedOn when a move finds fewer
   * rows awaiting its attempts than it was given.
   */
  private async write(
    tx: BatchTransaction,
    reports: readonly BatchReport[],
    lease: { now: Date; leaseUntil: Date },
    readFirst: boolean,
  ): Promise<BatchRecorded[]> {
    const results: BatchRecorded[] = reports.map((report) => ({
      recorded: report.attempts.map(() => !readFirst),
      next: [],
      heldUntil: null,
    }));
    // A fenced report's run renews its hold first; one whose hold is gone writes nothing (see BatchReport.fenced).
    const held = reports.map(() => true);
    const fenced = reports.flatMap((report, r) => (report.fenced ? [r] : []));
    if (fenced.length > 0) {
      const renewed = await tx.run(
        ...fenced.map((r) =>
          this.repository.renewRunStatement(reports[r].subscriptionId, reports[r].runId, lease.leaseUntil),
        ),
      );
      fenced.forEach((r, index) => {
        if (renewed[index]) return;
        held[r] = false;
        results[r].recorded = reports[r].attempts.map(() => false);
      });
    }
    const flat = reports.flatMap((report, r) =>
      held[r] ? report.attempts.map((attempt, a) => ({ attempt, r, a })) : [],
    );
    if (readFirst && flat.length > 0) {
      const ids = [...new Set(flat.map(({ attempt }) => attempt.deliveryId))];
      const [rows] = await tx.run(this.repository.lockStatement(ids));
      const awaited = awaitedOutcomes(
        rows,
        flat.map(({ attempt }) => attempt),
      );
      flat.forEach(({ r, a }, index) => (results[r].recorded[a] = awaited[index]));
    }
    const writes = flat.filter(({ r, a }) => results[r].recorded[a]).map(({ attempt }) => attempt);
    if (writes.length === 0) {
      await tx.commit();
      return results;
    }
    const moves = this.repository.moveStatements(writes);
    const statements: Statement[] = [...moves, this.repository.attemptsStatement(writes)];
    const reads: ((read: unknown[]) => void)[] = [];
    const failed: { report: number; at: Date }[] = [];
    reports.forEach((report, r) => {
      const accepted = report.attempts.filter((_, a) => results[r].recorded[a]);
      if (accepted.length === 0) return;
      const change = breakerChange(
        accepted.map((each) => ({ ok: each.ok, error: each.attempt.error })),
        report.mayBeFailing,
      );
      if (change.kind === 'close') {
        const at = statements.push(...this.repository.closeBreakerStatements(report.subscriptionId)) - 2;
        reads.push((read) => (results[r].closed = read[at] as boolean));
      } else if (change.kind === 'fail') {
        // The batch's last failure happened when its attempt ended; the breaker opens from now, once every
        // answer is in (a batch of timeouts ends WEBHOOK_TIMEOUT_MS after it began).
        const { createdAt, durationMs } = accepted[accepted.length - 1].attempt;
        const last = new Date(createdAt.getTime() + durationMs);
        const at =
          statements.push(...this.repository.failBreakerStatements(report.subscriptionId, change, last)) - 1;
        reads.push((read) => (results[r].breaker = read[at] as EndpointBreaker));
        failed.push({ report: r, at: lease.now });
      }
      if (change.kind === 'fail' || report.claimNext === 0) return;
      // The renewal comes first: a run that no longer holds its endpoint drops the rows read after it.
      const renewed =
        statements.push(
          this.repository.renewRunStatement(report.subscriptionId, report.runId, lease.leaseUntil),
          this.repository.claimStatement(report.subscriptionId, lease.now, report.claimNext),
        ) - 2;
      reads.push((read) => {
        if (!(read[renewed] as boolean)) return;
        results[r].heldUntil = lease.leaseUntil;
        results[r].next = read[renewed + 1] as DeliveryWork[];
      });
    });
    const read = await tx.run(...statements);
    const moved = moves.reduce((sum, _, index) => sum + (read[index] as number), 0);
    if (moved !== writes.length) {
      // Read and locked first, every row written waits for its attempt: a count short of that is a defect.
      if (readFirst) throw new Error(`${writes.length - moved} awaited attempts found no row to move`);
      throw new AttemptsMovedOn();
    }
    for (const each of reads) each(read);
    const opens = failed.flatMap(({ report, at }) => {
      const breaker = results[report].breaker as EndpointBreaker;
      const { breakerThreshold, breakerOpenSeconds, subscriptionId } = reports[report];
      const opening = breakerOpening(breaker, breakerThreshold, breakerOpenSeconds, at);
      if (!opening) return [];
      results[report].breaker = {
        ...breaker,
        opens: breaker.opens + 1,
        openUntil: opening.openUntil,
        openedAt: at,
        justOpened: true,
      };
      return [this.repository.openBreakerStatement(subscriptionId, opening.openUntil, at)];
    });
    await tx.commit(...opens);
    return results;
  }
}
