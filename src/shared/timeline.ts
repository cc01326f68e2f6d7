/**
 * Timeline events (derived, never stored) and how the timeline groups them into days.
 */
import { key } from './i18n/translate';
import { DAY_GROUP_FORMAT, formatDate, localDayOf } from './dates';
import type { RecordType } from './records/definition';

export type TimelineEventType =
  | Extract<
      RecordType,
      | 'visit'
      | 'medication'
      | 'shot'
      | 'note'
      | 'condition'
      | 'allergy'
      | 'lab_result'
      | 'vital'
      | 'symptom'
    >
  /** A document, on its Document Date (CONTRACT §5 'Documents'). */
  | 'document';

export interface TimelineEvent {
  id: string;
  type: TimelineEventType;
  name: string;
  /** A UTC timestamp (visits) or a calendar date (everything else). */
  date: string;
  /** The account that keeps the record: the user's own, or the owner of a shared person. */
  user_id: string;
  family_member_id: string | null;
  family_member_name: string | null;
  family_member_color: string | null;
  /** The type's mark of the record, when it has one ('High', 'Low' on a lab result). */
  mark?: string | null;
}

export interface TimelinePage {
  events: TimelineEvent[];
  /** Where the next page starts, or null on the last one. */
  next: string | null;
}

export const TIMELINE_TYPE_LABELS: Record<TimelineEventType, string> = {
  visit: key('Visit'),
  medication: key('Medication'),
  shot: key('Shot'),
  note: key('Note'),
  condition: key('Condition'),
  allergy: key('Allergy'),
  lab_result: key('Lab Result'),
  vital: key('Vitals'),
  symptom: key('Symptom'),
  document: key('Document'),
};

/** The calendar day an event belongs to, in the viewer's time zone. */
export function eventDay(event: Pick<TimelineEvent, 'date'>): string {
  return event.date.length > 10 ? localDayOf(event.date) : event.date;
}

export interface TimelineDay {
  /** `YYYY-MM-DD`. */
  day: string;
  /** 'MMM d, yyyy'. */
  label: string;
  events: TimelineEvent[];
}

/** Events grouped by local day, newest day first, newest event first within a day. */
export function groupTimeline(events: readonly TimelineEvent[]): TimelineDay[] {
  const byDay = new Map<string, TimelineEvent[]>();
  for (const event of events) {
    const day = eventDay(event);
    const list = byDay.get(day);
    if (list) list.push(event);
    else byDay.set(day, [event]);
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([day, dayEvents]) => ({
      day,
      label: formatDate(day, DAY_GROUP_FORMAT),
      events: [...dayEvents].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)),
    }));
}

/**
 * Whether the 'Today - {date}' / 'No events today' marker goes first: there are events,
 * none of them today, and the newest day is in the past.
 */
export function showsTodayMarker(days: readonly TimelineDay[], today: string): boolean {
  const newest = days[0];
  if (!newest) return false;
  return !days.some((group) => group.day === today) && newest.day < today;
}

/**
 * At a desk the timeline's side panel has 'Upcoming visits': the visits on a day after today,
 * soonest day first and soonest first within it. The rest stay in the events column.
 */
export function splitUpcomingVisits(
  events: readonly TimelineEvent[],
  today: string,
): { upcoming: TimelineDay[]; rest: TimelineEvent[] } {
  const ahead = (event: TimelineEvent) => event.type === 'visit' && eventDay(event) > today;
  const upcoming = groupTimeline(events.filter(ahead))
    .reverse()
    .map((day) => ({ ...day, events: day.events.reverse() }));
  return { upcoming, rest: events.filter((event) => !ahead(event)) };
}
