import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { retryTransaction } from '../../database/mysql-errors';
import { PlaceReach, placeReachCondition } from '../auth/caller';

export interface OutcomeCount {
  hour: Date;
  placeId: string;
  operation: string;
  outcome: string;
  answers: number;
}

/** The overview's own table (the hourly check-in counts) and its reads of places and visits. */
@Injectable()
export class OverviewRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds the counts to the stored ones; rows in key order, so that two processes never deadlock each other. */
  async addOutcomes(rows: OutcomeCount[]): Promise<void> {
    if (rows.length === 0) return;
    const sorted = [...rows].sort(
      (a, b) =>
        a.hour.getTime() - b.hour.getTime() ||
        a.placeId.localeCompare(b.placeId) ||
        a.operation.localeCompare(b.operation) ||
        a.outcome.localeCompare(b.outcome),
    );
    // One statement, its own transaction: run again whole when it loses a conflict (another node's counts).
    await retryTransaction(() =>
      this.dataSource.query(
        `INSERT INTO check_in_outcome_hours (hour, place_id, operation, outcome, answers) VALUES ?
         ON DUPLICATE KEY UPDATE answers = answers + VALUES(answers)`,
        [sorted.map((row) => [row.hour, row.placeId, row.operation, row.outcome, row.answers])],
      ),
    );
  }

  /** Answers per hour, operation and outcome since `since`, summed over the places reached. */
  async outcomesSince(
    reach: PlaceReach,
    since: Date,
  ): Promise<{ hour: Date; operation: string; outcome: string; answers: number }[]> {
    const [condition, params] = placeReachCondition(reach, 'o.place_id');
    const rows: { hour: Date; operation: string; outcome: string; answers: string }[] =
      await this.dataSource.query(
        `SELECT o.hour, o.operation, o.outcome, SUM(o.answers) AS answers
         FROM check_in_outcome_hours o WHERE o.hour >= ? AND ${condition}
         GROUP BY o.hour, o.operation, o.outcome`,
        [since, ...params],
      );
    return rows.map((row) => ({ ...row, answers: Number(row.answers) }));
  }

  /** Visits recorded since `since` per place reached (through each place's own index). */
  async visitsSince(reach: PlaceReach, since: Date): Promise<Map<string, number>> {
    const [condition, params] = placeReachCondition(reach, 'p.id');
    const rows: { placeId: string; visits: string }[] = await this.dataSource.query(
      `SELECT p.id AS placeId, COUNT(*) AS visits
       FROM places p JOIN visits v ON v.place_id = p.id AND v.created_at >= ?
       WHERE ${condition} GROUP BY p.id`,
      [since, ...params],
    );
    return new Map(rows.map((row) => [row.placeId, Number(row.visits)]));
  }
}
