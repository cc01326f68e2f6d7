/** The private calendar feed (CONTRACT.md §4 'Calendar'): what the API takes and answers. */
import { z } from 'zod';

/** `POST /api/calendar-link`: a feed of everyone's visits and shots, or one person's. */
export const calendarLinkInputSchema = z.object({
  person_id: z.string().max(100).nullable().default(null),
});
export type CalendarLinkInput = z.input<typeof calendarLinkInputSchema>;

/** The account's calendar link, as its owner sees it: the URL only when just made. */
export interface CalendarLinkState {
  /** The feed's URL (ending in `.ics`): only in the answer that created it. */
  url?: string;
  person_id: string | null;
  created_at: string;
  last_read_at: string | null;
}

/** `GET /api/calendar-link` when there is none. */
export const NO_CALENDAR_LINK = { link: null } as const;
