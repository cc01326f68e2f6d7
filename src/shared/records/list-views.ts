/**
 * Which tab of a type's list holds a record: the first of the type's views (upcoming/past,
 * current/past) whose rule the record meets, by the same rule the server's list applies to
 * its rows (records/record-repository.ts, `applyView`). The screens ask it where to return
 * after a save; nothing here knows a type's columns or where it splits the present.
 */
import type { ListView, RecordDefinition } from './definition';

/** The present a view compares against: the moment (visits) and the calendar day (shots). */
export interface Present {
  /** An ISO timestamp. */
  now: string;
  /** The browser's calendar date, `YYYY-MM-DD`. */
  today: string;
}

type Comparison = '<' | '<=' | '>' | '>=';

const COMPARE: Record<Comparison, (value: number | string, boundary: number | string) => boolean> =
  {
    '<': (value, boundary) => value < boundary,
    '<=': (value, boundary) => value <= boundary,
    '>': (value, boundary) => value > boundary,
    '>=': (value, boundary) => value >= boundary,
  };

/** Whether a record's value meets a view's rule. */
export function inView(view: ListView, value: unknown, present: Present): boolean {
  if (value === null || value === undefined || value === '') return view.includesEmpty;
  if (typeof value !== 'string') return false;
  const compare = COMPARE[view.comparison];
  if (view.against === 'today') return compare(value.slice(0, 10), present.today);
  const moment = Date.parse(value);
  return !Number.isNaN(moment) && compare(moment, Date.parse(present.now));
}

/** The name of the view that holds a record, or undefined (a type without views, a shot with no date). */
export function viewOfRecord(
  definition: Pick<RecordDefinition, 'views'>,
  record: Readonly<Record<string, unknown>>,
  present: Present,
): string | undefined {
  return Object.entries(definition.views ?? {}).find(([, view]) =>
    inView(view, record[view.column], present),
  )?.[0];
}

/** The view a list opens on when it is not told: the type's first. */
export function firstViewOf(definition: Pick<RecordDefinition, 'views'>): string | undefined {
  return Object.keys(definition.views ?? {})[0];
}
