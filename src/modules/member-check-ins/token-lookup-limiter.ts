import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { message, MessageKey } from '../../common/i18n/messages';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
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
    const windowStart = this.windowStart(now);
    const read = await find(new Date(windowStart), this.config.tokenLookupFailuresPerMinute);
    if (read.failures >= this.config.tokenLookupFailuresPerMinute) {
      const seconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
      throw new DomainError('rate_limited', message(limited, { seconds }), {
        headers: { 'Retry-After': String(seconds) },
      });
    }
    return read;
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
