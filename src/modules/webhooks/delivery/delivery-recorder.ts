import { Injectable } from '@nestjs/common';
import type { BatchTransaction, Statement } from '../../../database/statement-batch';
import { Transactions } from '../../../database/transactions';
import { awaitedOutcomes, breakerChange, breakerOpening } from './delivery-policy';
import {
  AttemptWrite,
  DeliveriesRepository,
  DeliveryWork,
  DueAttempt,
  EndpointBreaker,
} from './deliveries.repository';

/** One attempt's outcome as a runner reports it: the attempt it made and what it writes. */
export interface ReportedAttempt extends AttemptWrite {
  ok: boolean;
}

/** The outcomes of one batch to one endpoint, in the order the answers arrived. */
export interface BatchReport {
  subscriptionId: string;
  attempts: ReportedAttempt[];
  /** The endpoint had failures before this batch: a success closes its breaker. */
  mayBeFailing: boolean;
  breakerThreshold: number;
  breakerOpenSeconds: number;
  /** When every outcome is a success: claim up to this many of the endpoint's next due attempts. */
  claimNext: number;
}

/** What recording a batch did. */
export interface BatchRecorded {
  /** For each reported attempt: written (false when its row had moved on). */
  recorded: boolean[];
  /** The endpoint's breaker after the batch's failures. */
  breaker?: EndpointBreaker;
  /** The batch's success closed the endpoint's breaker. */
  closed?: boolean;
  /** The endpoint's next due attempts, claimed for the runner with their work. */
  next: DeliveryWork[];
}

/** A batch's outcome found a row that no longer waits for its attempt (see DeliveryRecorder.record). */
class AttemptsMovedOn extends Error {
  override readonly name = 'AttemptsMovedOn';
}

/**
 * Writes the outcomes of batches in one transaction (two round trips on one server: the deliveries moved, the attempts logged,
 * the breakers written and the next attempts claimed; the claimed rows marked, their work read, COMMIT). Each
 * move changes only the rows still waiting for that very attempt and counts them: when every reported attempt is
 * still awaited (the usual case), the counts say so and nothing is read first. When one is not (a redelivery, a
 * lost claim released, a copy of the job), the transaction is rolled back and written again with the rows
 * locked and read first, so that only the awaited attempts are logged. The claimed rows' `queued_at` is the end
 * of the runner's lease, so that the lost-attempt check leaves them alone while the runner has them; a batch
 * claims at most as many as it reported, so an endpoint never has more than its share in flight. A transaction
 * that loses a conflict runs again from its start (Transactions): the receivers have their events, they must not
 * get them twice.
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
    if (new Set(ids).size === ids.length) {
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
    }));
    const flat = reports.flatMap((report, r) => report.attempts.map((attempt, a) => ({ attempt, r, a })));
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
    const claims: DueAttempt[][] = reports.map(() => []);
    const reads: ((read: unknown[]) => void)[] = [];
    const failed: { report: number; at: Date }[] = [];
    const wanted: { report: number; count: number }[] = [];
    reports.forEach((report, r) => {
      const accepted = report.attempts.filter((_, a) => results[r].recorded[a]);
      if (accepted.length === 0) return;
      const change = breakerChange(
        accepted.map((each) => ({ ok: each.ok, error: each.attempt.error })),
        report.mayBeFailing,
      );
      if (change.kind === 'close') {
        const at = statements.push(this.repository.closeBreakerStatement(report.subscriptionId)) - 1;
        reads.push((read) => (results[r].closed = read[at] as boolean));
      } else if (change.kind === 'fail') {
        const last = accepted[accepted.length - 1].attempt.createdAt;
        const at =
          statements.push(...this.repository.failBreakerStatements(report.subscriptionId, change, last)) - 1;
        reads.push((read) => (results[r].breaker = read[at] as EndpointBreaker));
        failed.push({ report: r, at: last });
      }
      if (change.kind !== 'fail' && report.claimNext > 0)
        wanted.push({ report: r, count: Math.min(report.claimNext, accepted.length) });
    });
    // One claim per endpoint: SKIP LOCKED does not skip the rows this transaction locked itself, so two
    // claims of one endpoint here would hand the same rows to two runs.
    const byEndpoint = new Map<string, { report: number; count: number }[]>();
    for (const want of wanted) {
      const id = reports[want.report].subscriptionId;
      byEndpoint.set(id, [...(byEndpoint.get(id) ?? []), want]);
    }
    for (const [subscriptionId, wants] of byEndpoint) {
      const total = wants.reduce((sum, want) => sum + want.count, 0);
      const at = statements.push(this.repository.claimStatement(subscriptionId, lease.now, total)) - 1;
      reads.push((read) => {
        const rows = [...(read[at] as DueAttempt[])];
        for (const want of wants) claims[want.report] = rows.splice(0, want.count);
      });
    }
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
    const claimed = claims.flat().map((attempt) => attempt.id);
    if (claimed.length === 0) {
      await tx.commit(...opens);
      return results;
    }
    const [, work] = await tx.commit(
      this.repository.markQueuedStatement(claimed, lease.leaseUntil),
      this.repository.findWorkStatement(claimed),
      ...opens,
    );
    claims.forEach((list, r) => {
      results[r].next = list.flatMap((attempt) => {
        const found = work.get(attempt.id);
        return found ? [found] : [];
      });
    });
    return results;
  }
}
