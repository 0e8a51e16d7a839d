import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../../common/time/clock';
import { CheckInRepository } from './check-in.repository';
import { IDEMPOTENCY_TTL_MS } from './check-in.service';

const PURGE_EVERY_MS = 60 * 60 * 1000;
const BATCH = 5000;

/**
 * Deletes idempotency records past their 24 hours, hourly and at start, in small batches so no statement
 * holds locks for long. Without it a turnstile that sends a fresh key with every register grows the table
 * forever (an expired record is otherwise only dropped when its own key comes back).
 */
@Injectable()
export class IdempotencyPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyPurge.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly repository: CheckInRepository,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    const run = (): void => {
      this.purge().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'Purging expired idempotency records failed; retrying in an hour'),
      );
    };
    run();
    this.timer = setInterval(run, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Answers how many records it deleted. */
  async purge(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - IDEMPOTENCY_TTL_MS);
    let total = 0;
    for (;;) {
      const deleted = await this.repository.deleteIdempotencyRecordsBefore(before, BATCH);
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
