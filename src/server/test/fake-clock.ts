/**
 * A clock for the backup scheduler's tests: time moves only when the test moves it, and
 * timers fire in order as it passes them.
 */
import type { Clock, Timer } from '../operations/backup-scheduler';

interface PendingTimer {
  at: number;
  callback: () => void;
}

export class FakeClock implements Clock {
  private current: number;
  private timers = new Set<PendingTimer>();
  /** Every wait asked for, in milliseconds. */
  readonly requestedWaits: number[] = [];

  constructor(start: Date) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimer(callback: () => void, ms: number): Timer {
    this.requestedWaits.push(ms);
    const timer = { at: this.current + ms, callback };
    this.timers.add(timer);
    return { cancel: () => this.timers.delete(timer) };
  }

  /** When the timers pending now will fire. */
  pending(): Date[] {
    return [...this.timers].map((timer) => new Date(timer.at)).sort((a, b) => +a - +b);
  }

  /**
   * Moves time to `until`, firing each timer on the way at its own time; after each, waits
   * for `settle` (the work the timer started) before going on.
   */
  async advanceTo(until: Date, settle: () => Promise<void> = async () => {}): Promise<void> {
    for (;;) {
      const next = [...this.timers]
        .filter((timer) => timer.at <= until.getTime())
        .sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.at);
      next.callback();
      await settle();
    }
    this.current = Math.max(this.current, until.getTime());
  }
}
