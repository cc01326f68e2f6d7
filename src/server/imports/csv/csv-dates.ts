/**
 * The dates and times a CSV writes, read into moments (decision 0056). A spreadsheet writes
 * what its user typed: `2024-03-14`, `2024-03-14 08:30`, an ISO time with its offset, or the
 * `3/14/2024 8:30 AM` (or `14/3/2024`) of its region. A time without an offset is on the
 * user's clock (`options.timeZone`), turned into a moment by @date-fns/tz. A slashed date's
 * order is told by the whole file: a first part over 12 makes it day/month, a second part
 * over 12 month/day; a file where no date tells, or where they disagree, is refused rather
 * than guessed (a weight put a month off is worse than a file to fix).
 */
import { TZDate } from '@date-fns/tz';
import { isCalendarDate } from '../../../shared/date-values';
import { tr } from '../../../shared/i18n/translate';

/** A wall-clock time, with no zone yet. */
interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** What a date cell says, before the file tells how its slashed dates go. */
export type DateReading =
  | { kind: 'instant'; at: string }
  | { kind: 'wall'; wall: Wall; timed: boolean }
  | {
      kind: 'slashed';
      first: number;
      second: number;
      wall: Omit<Wall, 'month' | 'day'>;
      timed: boolean;
    };

export type SlashOrder = 'month-first' | 'day-first';

const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const ISO_OFFSET =
  /^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const SLASHED =
  /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?)?$/i;

export const DATE_FORMATS = 'YYYY-MM-DD, YYYY-MM-DD HH:mm, an ISO time, or M/D/YYYY';

const validWall = (wall: Wall) =>
  isCalendarDate(
    `${String(wall.year).padStart(4, '0')}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`,
  ) &&
  wall.hour <= 23 &&
  wall.minute <= 59 &&
  wall.second <= 59;

/** What a date cell says, or null when it is no date this reads. */
export function readDate(text: string): DateReading | null {
  const value = text.trim();
  if (ISO_OFFSET.test(value)) {
    const at = Date.parse(value.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    if (Number.isNaN(at) || !validWall(wallOfIso(value))) return null;
    return { kind: 'instant', at: new Date(at).toISOString() };
  }
  const iso = ISO_LOCAL.exec(value);
  if (iso) {
    const [, year, month, day, hour, minute, second] = iso.map(Number) as number[];
    const wall = {
      ...{ year: year!, month: month!, day: day! },
      ...{ hour: hour || 0, minute: minute || 0, second: second || 0 },
    };
    return validWall(wall) ? { kind: 'wall', wall, timed: iso[4] !== undefined } : null;
  }
  const slashed = SLASHED.exec(value);
  if (slashed) {
    const [, first, second, year, hourText, minute, secondsText, meridiem] = slashed;
    let hour = Number(hourText ?? 0);
    if (meridiem) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (meridiem.toUpperCase() === 'PM' ? 12 : 0);
    }
    const time = {
      year: Number(year),
      hour,
      minute: Number(minute ?? 0),
      second: Number(secondsText ?? 0),
    };
    if (time.hour > 23 || time.minute > 59 || time.second > 59) return null;
    const [a, b] = [Number(first), Number(second)];
    // A date that is no date either way round (13/13, 2/30 and 30/2) stops here.
    const either = [wallOf(a, b, time), wallOf(b, a, time)].some(validWall);
    if (!either) return null;
    return { kind: 'slashed', first: a, second: b, wall: time, timed: hourText !== undefined };
  }
  return null;
}

function wallOfIso(value: string): Wall {
  const [year, month, day, hour, minute, second] = value.match(/\d+/g)!.map(Number) as number[];
  return {
    year: year!,
    month: month!,
    day: day!,
    hour: hour!,
    minute: minute!,
    second: second ?? 0,
  };
}

const wallOf = (month: number, day: number, time: Omit<Wall, 'month' | 'day'>): Wall => ({
  ...time,
  month,
  day,
});

/** Tells the order of a file's slashed dates from each one read. */
export class SlashOrderEvidence {
  private monthFirst: string | null = null;
  private dayFirst: string | null = null;
  /** A date that reads either way round (3/4/2024, not 4/4/2024). */
  private ambiguous: string | null = null;

  see(reading: DateReading, text: string): void {
    if (reading.kind !== 'slashed') return;
    if (reading.first > 12) this.dayFirst ??= text.trim();
    else if (reading.second > 12) this.monthFirst ??= text.trim();
    else if (reading.first !== reading.second) this.ambiguous ??= text.trim();
  }

  /** The order, or a refusal naming the column when the file does not tell one. */
  order(column: string): SlashOrder | { refusal: string } | null {
    if (this.monthFirst && this.dayFirst) {
      return {
        refusal: tr(
          "The dates in column '{column}' are written both month first ('{monthFirst}') and day first ('{dayFirst}'). Write them as YYYY-MM-DD and import the file again.",
          { column, monthFirst: this.monthFirst, dayFirst: this.dayFirst },
        ),
      };
    }
    if (this.monthFirst) return 'month-first';
    if (this.dayFirst) return 'day-first';
    // None, or only dates such as 4/4/2024 that read the same either way.
    if (this.ambiguous === null) return null;
    return {
      refusal: tr(
        "The dates in column '{column}' (such as '{example}') could be month/day or day/month, and no date in the file tells which. Write them as YYYY-MM-DD and import the file again.",
        { column, example: this.ambiguous },
      ),
    };
  }
}

/** A time zone Intl knows, or null. */
export function knownTimeZone(timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `2024-03-14T08:30`: the clock's reading as SampleHours and the date range take it. */
const localOf = (wall: Wall) =>
  `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;

/** A UTC timestamp on the time zone's clock: `2024-03-14T08:30`. */
export function clockOf(at: string, timeZone: string): string {
  const clock = new TZDate(Date.parse(at), timeZone);
  return localOf({
    ...{ year: clock.getFullYear(), month: clock.getMonth() + 1, day: clock.getDate() },
    ...{ hour: clock.getHours(), minute: clock.getMinutes(), second: clock.getSeconds() },
  });
}

export interface Moment {
  /** UTC timestamp. */
  at: string;
  /** On the user's clock: `2024-03-14T08:30`. */
  local: string;
  /** Whether the cell gave a time, not only a day. */
  timed: boolean;
}

/** A date cell's moment, its slashed order told; its wall clock read on the time zone. */
export function momentOf(reading: DateReading, order: SlashOrder | null, timeZone: string): Moment {
  if (reading.kind === 'instant')
    return { at: reading.at, local: clockOf(reading.at, timeZone), timed: true };
  const wall =
    reading.kind === 'wall'
      ? reading.wall
      : order === 'day-first'
        ? wallOf(reading.second, reading.first, reading.wall)
        : wallOf(reading.first, reading.second, reading.wall);
  const at = TZDate.tz(
    timeZone,
    wall.year,
    wall.month - 1,
    wall.day,
    wall.hour,
    wall.minute,
    wall.second,
  );
  return { at: new Date(at.getTime()).toISOString(), local: localOf(wall), timed: reading.timed };
}

/** Whether a slashed date is a date in the file's order (`2/30` is not, either way). */
export function validInOrder(reading: DateReading, order: SlashOrder | null): boolean {
  if (reading.kind !== 'slashed') return true;
  const [month, day] =
    order === 'day-first' ? [reading.second, reading.first] : [reading.first, reading.second];
  return validWall(wallOf(month, day, reading.wall));
}
