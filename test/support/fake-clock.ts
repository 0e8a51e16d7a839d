import { Clock } from '../../src/common/time/clock';

/** A clock the test moves by hand; `null` follows real time. */
export class FakeClock extends Clock {
  private fixed: Date | null = null;

  override now(): Date {
    return this.fixed ? new Date(this.fixed) : new Date();
  }

  set(at: Date | string): void {
    this.fixed = new Date(at);
  }

  advance(ms: number): void {
    this.fixed = new Date(this.now().getTime() + ms);
  }

  reset(): void {
    this.fixed = null;
  }
}
