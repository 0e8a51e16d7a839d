import type { DataSource } from 'typeorm';
import { AttemptWrite, DeliveriesRepository } from './deliveries.repository';

describe('DeliveriesRepository.moveStatement', () => {
  const repository = new DeliveriesRepository({} as DataSource);
  const at = new Date('2026-11-26T12:00:00.000Z');
  const write = (deliveryId: string, statusCode: number, number = 1): AttemptWrite => ({
    deliveryId,
    attempt: {
      number,
      url: 'https://gym.example/hooks',
      statusCode,
      durationMs: 4,
      responseBody: null,
      error: statusCode < 300 ? null : `HTTP ${statusCode}`,
      createdAt: at,
    },
    status: statusCode < 300 ? 'delivered' : 'queued',
    nextAttemptAt: statusCode < 300 ? null : new Date(at.getTime() + 60_000),
  });

  it('sets each column once when every attempt of the batch moves it to the same value', () => {
    const move = repository.moveStatement([write('dlv_a', 200), write('dlv_b', 200)]);
    expect(move.sql).not.toContain('CASE');
    expect(move.sql).toContain('delivered_at = ?');
    expect(move.values).toEqual([
      1,
      'https://gym.example/hooks',
      'delivered',
      200,
      null,
      at,
      null,
      at,
      ['dlv_a', 'dlv_b'],
    ]);
  });

  it('picks each row its own value only in the columns where the batch differs', () => {
    const move = repository.moveStatement([write('dlv_a', 200), write('dlv_b', 500, 2)]);
    expect(move.sql).toContain('attempts = CASE id WHEN ? THEN ? WHEN ? THEN ? END');
    expect(move.sql).toContain('status = CASE id');
    expect(move.sql).toContain('last_attempt_at = ?');
    expect(move.sql).toContain('url = ?');
    // Only the delivered row gets a delivery time; the other keeps its own.
    expect(move.sql).toContain('delivered_at = CASE id WHEN ? THEN ? ELSE delivered_at END');
    expect(move.values.slice(0, 4)).toEqual(['dlv_a', 1, 'dlv_b', 2]);
    expect(move.values[move.values.length - 1]).toEqual(['dlv_a', 'dlv_b']);
  });

  it('leaves the delivery time alone when no attempt of the batch delivered', () => {
    expect(repository.moveStatement([write('dlv_a', 500)]).sql).not.toContain('delivered_at');
  });
});
