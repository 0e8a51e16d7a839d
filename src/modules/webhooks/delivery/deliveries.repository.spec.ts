import type { DataSource } from 'typeorm';
import { AttemptWrite, DeliveriesRepository } from './deliveries.repository';

describe('DeliveriesRepository.moveStatements', () => {
  const repository = new DeliveriesRepository({} as DataSource);
  const at = new Date('2026-11-26T12:00:00.000Z');
  const write = (
    deliveryId: string,
    statusCode: number,
    number = 1,
    url = 'https://gym.example/hooks',
  ): AttemptWrite => ({
    deliveryId,
    redeliveries: 0,
    attempts: number - 1,
    attempt: {
      number,
      url,
      statusCode,
      durationMs: 4,
      responseBody: null,
      error: statusCode < 300 ? null : `HTTP ${statusCode}`,
      createdAt: at,
    },
    status: statusCode < 300 ? 'delivered' : 'queued',
    nextAttemptAt: statusCode < 300 ? null : new Date(at.getTime() + 60_000),
  });

  it('moves a batch whose attempts ended alike in one statement, with its delivery time', () => {
    const moves = repository.moveStatements([write('dlv_a', 200), write('dlv_b', 200)]);
    expect(moves).toHaveLength(1);
    expect(moves[0].sql).toContain('delivered_at = ?');
    expect(moves[0].values).toEqual([
      1,
      'https://gym.example/hooks',
      'delivered',
      200,
      null,
      at,
      null,
      at,
      ['dlv_a', 'dlv_b'],
      0,
      0,
    ]);
    // Only rows still waiting for that very attempt: in flight, in the same chain, after as many attempts.
    expect(moves[0].sql).toContain(
      "AND redeliveries = ? AND attempts = ? AND status IN ('pending', 'queued')",
    );
    expect(moves[0].read({ affectedRows: 2, insertId: 0 })).toBe(2);
  });

  it('gives each set of alike outcomes a statement of its own; a failed attempt keeps its delivery time', () => {
    const moves = repository.moveStatements([
      write('dlv_a', 200),
      write('dlv_b', 500, 2),
      write('dlv_c', 200),
      write('dlv_d', 500, 2),
      write('dlv_e', 200, 1, 'https://other.example/hooks'),
    ]);
    expect(moves.map((move) => move.values[move.values.length - 3])).toEqual([
      ['dlv_a', 'dlv_c'],
      ['dlv_b', 'dlv_d'],
      ['dlv_e'],
    ]);
    expect(moves[1].sql).not.toContain('delivered_at');
    expect(moves[1].values).toEqual([
      2,
      'https://gym.example/hooks',
      'queued',
      500,
      'HTTP 500',
      at,
      new Date(at.getTime() + 60_000),
      ['dlv_b', 'dlv_d'],
      0,
      1,
    ]);
  });
});
