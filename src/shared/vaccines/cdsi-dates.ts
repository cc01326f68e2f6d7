/**
 * Calendar arithmetic as the CDC's CDSi logic specification defines it: dates are whole days
 * (here: days since 1970-01-01, so comparisons are plain number comparisons), and a duration
 * from the supporting data ('12 months - 4 days', '16 months + 4 weeks', '1 years') is added
 * piece by piece in the order written. Adding months or years that lands on a day the month
 * does not have (31 March + 6 months) moves to the first of the following month, as CDSi says.
 */

export type Day = number;

const MS_PER_DAY = 86_400_000;

const days = new Map<string, Day>();

/** 'YYYY-MM-DD' → day number; the string must be a real calendar date. */
export function toDay(isoDate: string): Day {
  let day = days.get(isoDate);
  if (day === undefined) {
    const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
    day = dayOf(y, m, d);
    days.set(isoDate, day);
  }
  return day;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function dayOf(year: number, month: number, day: number): Day {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The inverse of dayOf (civil_from_days). */
function dateOf(day: Day): [number, number, number] {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** Day number → 'YYYY-MM-DD' (a plan writes one for each dose given and each to come). */
export function fromDay(day: Day): string {
  const [y, m, d] = dateOf(day);
  // Years outside 0–9999 are written as ISO 8601 does (±YYYYYY), which Date knows.
  if (y < 0 || y > 9999) return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

type Unit = 'years' | 'months' | 'weeks' | 'days';
interface Piece {
  amount: number;
  unit: Unit;
}

const UNITS: Record<string, Unit> = {
  year: 'years',
  years: 'years',
  month: 'months',
  months: 'months',
  week: 'weeks',
  weeks: 'weeks',
  day: 'days',
  days: 'days',
};

const parsed = new Map<string, Piece[]>();

/** Parses a CDSi duration once; an unreadable one is an error in the shipped data. */
export function parseDuration(text: string): Piece[] {
  const cached = parsed.get(text);
  if (cached) return cached;
  const pieces: Piece[] = [];
  const pattern = /([+-]?)\s*(\d+)\s*([a-zA-Z]+)/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    const unit = UNITS[match[3]!.toLowerCase()];
    if (!unit) throw new Error(`Unknown unit in CDSi duration '${text}'`);
    pieces.push({ amount: (match[1] === '-' ? -1 : 1) * Number(match[2]), unit });
  }
  if (pieces.length === 0) throw new Error(`Unreadable CDSi duration '${text}'`);
  parsed.set(text, pieces);
  return pieces;
}

function addMonths(day: Day, months: number): Day {
  const [y, m, d] = dateOf(day);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const first = dayOf(year, month, 1);
  const lengthOfMonth = (month === 12 ? dayOf(year + 1, 1, 1) : dayOf(year, month + 1, 1)) - first;
  return d > lengthOfMonth ? first + lengthOfMonth : first + d - 1;
}

export function addDuration(day: Day, text: string): Day {
  let result = day;
  for (const piece of parseDuration(text)) {
    if (piece.unit === 'years') result = addMonths(result, piece.amount * 12);
    else if (piece.unit === 'months') result = addMonths(result, piece.amount);
    else if (piece.unit === 'weeks') result += piece.amount * 7;
    else result += piece.amount;
  }
  return result;
}
