/** Wall-clock times in a user's time zone, with Intl alone. */

/**
 * One formatter per time zone, made once: making one costs far more than using it, and the
 * reminder job reads the wall clock of every account's zone several times a minute. Zones are
 * checked before they are kept, so the map holds at most the few hundred there are.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterIn(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function partsIn(timeZone: string, instant: Date) {
  const parts = formatterIn(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** The calendar date (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(timeZone: string, instant: Date): string {
  const { year, month, day } = partsIn(timeZone, instant);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** How far a time zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(timeZone: string, instant: Date): number {
  const p = partsIn(timeZone, instant);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a wall-clock time (`HH:MM` on YYYY-MM-DD) is in a time zone. */
export function instantOf(timeZone: string, day: string, time: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(year, month - 1, date, hour, minute);
  // Twice: the offset at the first guess may differ from the offset at the answer.
  const first = wall - offsetAt(timeZone, new Date(wall));
  return new Date(wall - offsetAt(timeZone, new Date(first)));
}

/** 'h:mm AM' in a time zone. */
export function clockTimeIn(timeZone: string, instant: Date): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
  })
    .format(instant)
    .replace(/\s/gu, ' '); // some ICU versions put a narrow no-break space before AM/PM
}
