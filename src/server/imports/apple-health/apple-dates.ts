/**
 * Apple Health's dates: `2024-01-05 08:12:00 -0800`, the clock where the phone was, with
 * its offset from UTC. Kin stores the moment in UTC and keeps the clock time for what is
 * said on that clock (the hour a reading belongs to, the day a date range picks).
 */

export interface AppleDate {
  /** `2024-01-05T16:12:00.000Z` */
  utc: string;
  /** `2024-01-05T08:12` */
  local: string;
  /** `2024-01-05`: the day on the clock where it was taken. */
  day: string;
}

/**
 * A copy of a string that holds nothing else: V8 keeps a substring as a view of the string it
 * was cut from, and a date kept from a megabyte of the file would keep that megabyte.
 */
export const ownCopy = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

const APPLE_DATE = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

/** An Apple date read, or null when it is not one. */
export function readAppleDate(text: string): AppleDate | null {
  const match = APPLE_DATE.exec(text);
  if (!match) return null;
  const [, day, hours, minutes, seconds, sign, offsetHours, offsetMinutes] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const clock = Date.parse(`${day}T${hours}:${minutes}:${seconds}Z`);
  if (Number.isNaN(clock) || Number(hours) > 23) return null;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const utc = new Date(clock - offset * 60_000).toISOString();
  // Built of pieces shorter than V8 keeps as views, so neither holds on to the file's text.
  return { utc, local: `${day}T${hours}:${minutes}`, day };
}
