import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainError } from '../../common/errors/domain-error';
import { message } from '../../common/i18n/messages';
import { Clock } from '../../common/time/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AccountsRepository } from './accounts.repository';

/**
 * Seconds until a subject with these failures (newest first, within the window) may try again, or null when
 * it may now: it waits until the `limit`-th newest failure leaves the window.
 */
export function retryAfterSeconds(
  failures: Date[],
  limit: number,
  windowMs: number,
  now: Date,
): number | null {
  if (failures.length < limit) return null;
  const freedAt = failures[limit - 1].getTime() + windowMs;
  const seconds = Math.ceil((freedAt - now.getTime()) / 1000);
  return seconds > 0 ? seconds : null;
}

const accountSubject = (email: string) => `account:${email}`;
const addressSubject = (address: string) => `address:${address}`;

/**
 * Limits failed sign-ins per e-mail and per client address, in the database so that every instance counts
 * the same failures. An e-mail that names no account is counted like any other, so the answers never tell
 * whether an account exists.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly repository: AccountsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get windowMs(): number {
    return this.config.loginFailureWindowMinutes * 60_000;
  }

  /** 429 `rate_limited` with `Retry-After` while either the e-mail or the address is over its limit. */
  async assertAllowed(email: string, address: string): Promise<void> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - this.windowMs);
    const limits: [string, number][] = [
      [accountSubject(email), this.config.loginMaxFailuresPerAccount],
      [addressSubject(address), this.config.loginMaxFailuresPerAddress],
    ];
    let wait = 0;
    for (const [subject, limit] of limits) {
      const failures = await this.repository.recentFailures(subject, since, limit);
      wait = Math.max(wait, retryAfterSeconds(failures, limit, this.windowMs, now) ?? 0);
    }
    if (wait > 0) {
      throw new DomainError('rate_limited', message('session.tooManyFailures', { seconds: wait }), {
        headers: { 'Retry-After': String(wait) },
      });
    }
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const now = this.clock.now();
    await this.repository.recordFailures(
      [accountSubject(email), addressSubject(address)],
      now,
      new Date(now.getTime() - this.windowMs),
    );
  }

  /** A successful sign-in or a new password forgets the e-mail's failures (not the address's). */
  async clear(manager: EntityManager, email: string): Promise<void> {
    await this.repository.clearFailures(manager, accountSubject(email));
  }
}
