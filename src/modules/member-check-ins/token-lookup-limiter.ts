import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { message, MessageKey } from '../../common/i18n/messages';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Statement } from '../../database/statement-batch';
import { MemberCheckInsRepository } from './member-check-ins.repository';

const WINDOW_MS = 60_000;

/**
 * Limits check-in token look-ups that find nothing, per gym key, in fixed one-minute windows counted in the
 * database (so the limit holds over every process). A 6-digit token is short: without the limit a key could
 * try them all. While a key is over the limit, every token look-up with it answers 429 until the window ends.
 */
@Injectable()
export class TokenLookupLimiter {
  constructor(
    private readonly repository: MemberCheckInsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * What `find` reads, with the failures counted under its key in the current window (read in the look-up's
   * first statement); 429 `rate_limited`, with `Retry-After`, while the key is over the limit, whatever was
   * found. `find` is told the limit, so that it reads no further once the failures have reached it.
   */
  async lookUp<T extends { failures: number }>(
    find: (windowStart: Date, failureLimit: number) => Promise<T>,
    limited: MessageKey = 'memberCheckIn.tokenLookupsLimited',
  ): Promise<T> {
    const now = this.clock.now().getTime();
    const read = await find(new Date(this.windowStart(now)), this.config.tokenLookupFailuresPerMinute);
    this.refuseOverLimit(read.failures, now, limited);
    return read;
  }

  /**
   * lookUp as a statement, for a look-up sent with other statements in a transaction's round trip: `build`
   * makes it for the current window and the limit (so that it finds nothing for the statements after it while
   * the key is over the limit), and its read answers 429 while the key is over the limit.
   */
  lookUpStatement<T extends { failures: number }>(
    build: (windowStart: Date, failureLimit: number) => Statement<T>,
    limited: MessageKey = 'memberCheckIn.tokenLookupsLimited',
  ): Statement<T> {
    const now = this.clock.now().getTime();
    const statement = build(new Date(this.windowStart(now)), this.config.tokenLookupFailuresPerMinute);
    return {
      ...statement,
      read: (result) => {
        const read = statement.read(result);
        this.refuseOverLimit(read.failures, now, limited);
        return read;
      },
    };
  }

  /** 429 `rate_limited`, with `Retry-After`, when `failures` have reached the limit in the window of `now`. */
  private refuseOverLimit(failures: number, now: number, limited: MessageKey): void {
    if (failures < this.config.tokenLookupFailuresPerMinute) return;
    const seconds = Math.max(1, Math.ceil((this.windowStart(now) + WINDOW_MS - now) / 1000));
    throw new DomainError('rate_limited', message(limited, { seconds }), {
      headers: { 'Retry-After': String(seconds) },
    });
  }

  /**
   * Counts a look-up that found nothing; runs on its own, never inside a transaction that may roll back. The
   * counter's id is a place id, or another key's id of at most 36 characters (`partner:7`).
   */
  async countFailure(placeId: string): Promise<void> {
    const windowStart = this.windowStart(this.clock.now().getTime());
    await this.repository.countFailure(placeId, new Date(windowStart));
  }

  private windowStart(now: number): number {
    return now - (now % WINDOW_MS);
  }
}
