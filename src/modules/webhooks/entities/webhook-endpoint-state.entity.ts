import { Column, Entity, PrimaryColumn } from 'typeorm';
import { IDENTIFIER } from '../../../database/identifier-column';

/**
 * The circuit breaker of one endpoint (a subscription), shared by every process and shown to its owner.
 * `failures` counts consecutive failed attempts; at WEBHOOK_BREAKER_FAILURES the breaker opens until
 * `open_until`: the endpoint's deliveries wait (none is failed for it), then one probe attempt goes out
 * (half-open); a success closes the breaker, a failure opens it again for twice as long (`opens`).
 *
 * It also says which run sends the endpoint's deliveries (`run_id`, the Bull job that started it and, once
 * the run has begun, a token of its own) and until when (`run_until`, renewed with each batch's outcome): one
 * run at a time, so the rows it reads as due need no mark of their own.
 */
@Entity('webhook_endpoint_states')
export class WebhookEndpointStateEntity {
  @PrimaryColumn({ name: 'subscription_id', type: 'char', length: 36, ...IDENTIFIER })
  subscriptionId: string;

  @Column({ type: 'int', unsigned: true, default: 0 })
  failures: number;

  /** How many times in a row the breaker opened without a success in between. */
  @Column({ type: 'int', unsigned: true, default: 0 })
  opens: number;

  @Column({ name: 'open_until', type: 'datetime', precision: 3, nullable: true })
  openUntil: Date | null;

  @Column({ name: 'opened_at', type: 'datetime', precision: 3, nullable: true })
  openedAt: Date | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ name: 'last_failure_at', type: 'datetime', precision: 3, nullable: true })
  lastFailureAt: Date | null;

  @Column({ name: 'run_id', type: 'varchar', length: 100, nullable: true, ...IDENTIFIER })
  runId: string | null;

  @Column({ name: 'run_until', type: 'datetime', precision: 3, nullable: true })
  runUntil: Date | null;
}
