import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { statement, Statement, WriteResult } from '../../database/statement-batch';

export interface IdempotencyRecord {
  requestHash: string;
  statusCode: number;
  errorLabel: string | null;
  errorDetail: string | null;
  createdAt: Date;
}

/** The key was already taken by a request that committed first. */
export class IdempotencyKeyTaken extends Error {}

/** The idempotency records of register (Idempotency-Key): claimed in its transaction, replayed for 24 h. */
@Injectable()
export class CheckInRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findIdempotencyRecord(placeId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const rows: IdempotencyRecord[] = await this.dataSource.query(
      `SELECT request_hash AS requestHash, status_code AS statusCode, error_label AS errorLabel,
              error_detail AS errorDetail, created_at AS createdAt
       FROM idempotency_records WHERE place_id = ? AND idempotency_key = ?`,
      [placeId, key],
    );
    return rows[0];
  }

  /** Deletes the key's record only while it is older than `expiredBefore`, never a fresh claim of it. */
  async deleteExpiredIdempotencyRecord(placeId: string, key: string, expiredBefore: Date): Promise<void> {
    await this.dataSource.query(
      'DELETE FROM idempotency_records WHERE place_id = ? AND idempotency_key = ? AND created_at < ?',
      [placeId, key, expiredBefore],
    );
  }

  /** Deletes up to `limit` records created before `before`; answers how many went. */
  async deleteIdempotencyRecordsBefore(before: Date, limit: number): Promise<number> {
    const result: { affectedRows: number } = await this.dataSource.query(
      'DELETE FROM idempotency_records WHERE created_at < ? ORDER BY created_at LIMIT ?',
      [before, limit],
    );
    return result.affectedRows;
  }

  /** Turns the claim made in this transaction into the refusal the request got, so repeats replay it. */
  refusalStatement(
    placeId: string,
    key: string,
    refusal: Pick<IdempotencyRecord, 'statusCode' | 'errorLabel' | 'errorDetail'>,
  ): Statement {
    return statement(
      `UPDATE idempotency_records SET status_code = ?, error_label = ?, error_detail = ?
       WHERE place_id = ? AND idempotency_key = ?`,
      [refusal.statusCode, refusal.errorLabel, refusal.errorDetail, placeId, key],
    );
  }

  /**
   * Claims the key inside the register's transaction. A concurrent request with the same key waits on the
   * unique index until the first commits; then its claim inserts nothing and it gets IdempotencyKeyTaken (and
   * replays the first outcome). If the first rolled back, the claim is this request's.
   */
  claimStatement(
    placeId: string,
    key: string,
    record: Omit<IdempotencyRecord, 'createdAt'>,
    createdAt: Date,
  ): Statement {
    return statement(
      `INSERT IGNORE INTO idempotency_records
         (place_id, idempotency_key, request_hash, status_code, error_label, error_detail, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [placeId, key, record.requestHash, record.statusCode, record.errorLabel, record.errorDetail, createdAt],
      (result) => {
        if ((result as WriteResult).affectedRows === 0) throw new IdempotencyKeyTaken();
      },
    );
  }
}
