import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routeConfigOf } from '../../common/http/route-config';
import { notedPlaceOf } from '../../common/logging/request-context';
import { errorLabelOf } from '../../common/metrics/http-metrics';
import type { CheckInOperation } from '../../common/metrics/metrics';
import { Clock } from '../../common/time/clock';
import type { AuthenticatedPlace } from '../auth/auth.types';
import { OutcomeCount, OverviewRepository } from './overview.repository';

const HOUR_MS = 3_600_000;
/** How often the counts a process gathered are added to the database. */
export const TALLY_FLUSH_MS = 5_000;
/** Distinct counters kept while the database does not answer; beyond it new kinds of answer wait uncounted. */
const MAX_PENDING_COUNTERS = 10_000;
const SEPARATOR = '\u0000';

/**
 * Counts check-in answers per hour, place, operation and outcome (`success` or the error label), for the
 * overview's charts: refusals leave no row anywhere else. The request only increments a number in memory
 * after its answer is sent (an `onResponse` hook, as the Prometheus counter does); every TALLY_FLUSH_MS the
 * counts go to `check_in_outcome_hours` in one statement that adds them to what other processes wrote. A
 * process that dies loses at most its last few seconds of counts; a failed write keeps them for the next.
 */
@Injectable()
export class CheckInTally implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CheckInTally.name);
  private counts = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repository: OverviewRepository,
    private readonly clock: Clock,
  ) {}

  /** Counts every answer of a route that declares its `checkInOperation`, once it is sent. */
  register(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      const operation = routeConfigOf(request).checkInOperation;
      if (operation) {
        const outcome = reply.statusCode < 400 ? 'success' : (errorLabelOf(request) ?? 'internal_error');
        this.count(placeOf(request), operation, outcome);
      }
      done();
    });
  }

  count(placeId: string | undefined, operation: CheckInOperation, outcome: string): void {
    const hour = Math.floor(this.clock.now().getTime() / HOUR_MS) * HOUR_MS;
    const key = [hour, placeId ?? '', operation, outcome].join(SEPARATOR);
    const known = this.counts.get(key);
    if (known === undefined && this.counts.size >= MAX_PENDING_COUNTERS) return;
    this.counts.set(key, (known ?? 0) + 1);
  }

  /** Adds what was counted since the last flush to the database (flushes run one at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), TALLY_FLUSH_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.counts.size === 0) return;
    const taken = this.counts;
    this.counts = new Map();
    const rows: OutcomeCount[] = [...taken].map(([key, answers]) => {
      const [hour, placeId, operation, outcome] = key.split(SEPARATOR);
      return { hour: new Date(Number(hour)), placeId, operation, outcome, answers };
    });
    try {
      await this.repository.addOutcomes(rows);
    } catch (error) {
      // Kept for the next flush, added to what was counted meanwhile.
      for (const [key, answers] of taken) this.counts.set(key, (this.counts.get(key) ?? 0) + answers);
      this.logger.warn({ err: error }, 'Could not write check-in counts; they are kept for the next try');
    }
  }
}

function placeOf(request: FastifyRequest): string | undefined {
  const user = (request as FastifyRequest & { user?: AuthenticatedPlace }).user;
  return user?.placeId ?? notedPlaceOf(request);
}
