/**
 * When the daily backup runs: at BACKUP_TIME, local time, every day; soon after start when
 * today's time has passed with no good backup since; again after a delay when it fails.
 * One timer, to the next thing due, unref'd (it never keeps the process alive) and cleared on
 * stop. The clock is injected, so tests can walk through days in milliseconds.
 */
import type { BackupConfig } from '../config';
import type { Logger } from '../logger';

export interface Timer {
  cancel(): void;
}

export interface Clock {
  now(): Date;
  setTimer(callback: () => void, ms: number): Timer;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimer(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/**
 * The longest single wait. A timer counts elapsed time, not the wall clock: after the
 * machine sleeps or its clock is set, a day-long timer would be late. Waking at least hourly
 * to look at the clock again bounds that.
 */
export const MAX_TIMER_MS = 60 * 60 * 1000;

export const DEFAULT_CATCH_UP_DELAY_MS = 60 * 1000;
export const DEFAULT_RETRY_DELAYS_MS = [60 * 1000, 5 * 60 * 1000, 15 * 60 * 1000] as const;

type TimeOfDay = BackupConfig['time'];

function atTimeOn(day: Date, time: TimeOfDay): Date {
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), time.hour, time.minute);
}

/** Today's backup time, local. */
export function todaysBackupTime(time: TimeOfDay, now: Date): Date {
  return atTimeOn(now, time);
}

/** The first backup time after `now`. */
export function nextBackupTime(time: TimeOfDay, now: Date): Date {
  const today = atTimeOn(now, time);
  if (today > now) return today;
  return atTimeOn(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1), time);
}

export interface BackupSchedulerOptions {
  time: TimeOfDay;
  /** Makes one backup; throws when it fails. Stops early when the signal is aborted. */
  backUp: (signal: AbortSignal) => Promise<unknown>;
  /** When the newest good backup was made, or null when there is none. */
  lastGoodBackup: () => Date | null;
  logger: Logger;
  clock?: Clock;
  catchUpDelayMs?: number;
  /** The waits before each retry of a failed backup; their number is the number of retries. */
  retryDelaysMs?: readonly number[];
}

export interface BackupScheduler {
  /** When the next backup (or retry) is due, or null once stopped. */
  nextRunAt(): Date | null;
  /** Resolves once no backup is under way. */
  idle(): Promise<void>;
  /** Clears the timer and stops a backup under way (its temporary file is removed). */
  stop(): Promise<void>;
}

export function scheduleBackups(options: BackupSchedulerOptions): BackupScheduler {
  const { time, logger } = options;
  const clock = options.clock ?? systemClock;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const abort = new AbortController();
  let timer: Timer | null = null;
  let dueAt: Date | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const arm = (at: Date, action: () => void) => {
    timer?.cancel();
    dueAt = at;
    const wait = at.getTime() - clock.now().getTime();
    timer =
      wait > MAX_TIMER_MS
        ? clock.setTimer(() => arm(at, action), MAX_TIMER_MS)
        : clock.setTimer(action, Math.max(0, wait));
  };

  const scheduleNextDay = () => {
    const at = nextBackupTime(time, clock.now());
    arm(at, () => run(0));
    logger.debug({ at: at.toISOString() }, 'next daily backup');
  };

  const run = (attempt: number) => {
    timer = null;
    dueAt = null;
    if (stopped) return;
    running = options.backUp(abort.signal).then(
      () => {
        if (!stopped) scheduleNextDay();
      },
      (error: unknown) => {
        if (stopped) return;
        const retryIn = retryDelays[attempt];
        const retry = retryIn === undefined ? null : new Date(clock.now().getTime() + retryIn);
        logger.error(
          {
            err: error,
            attempt: attempt + 1,
            retryAt: retry?.toISOString() ?? null,
          },
          retry
            ? 'backup failed; the earlier backups are untouched, and it will be tried again'
            : 'backup failed again; the earlier backups are untouched; next try at the daily time',
        );
        if (retry) arm(retry, () => run(attempt + 1));
        else scheduleNextDay();
      },
    );
    void running.finally(() => {
      running = null;
    });
  };

  const now = clock.now();
  const today = todaysBackupTime(time, now);
  const last = options.lastGoodBackup();
  if (now >= today && !(last && last >= today)) {
    // Today's time went by while the server was not running.
    const at = new Date(now.getTime() + (options.catchUpDelayMs ?? DEFAULT_CATCH_UP_DELAY_MS));
    arm(at, () => run(0));
    logger.info({ at: at.toISOString() }, "today's backup is due: it will be made shortly");
  } else {
    scheduleNextDay();
  }

  return {
    nextRunAt: () => dueAt,
    idle: async () => {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      timer = null;
      dueAt = null;
      abort.abort();
      while (running) await running;
    },
  };
}
