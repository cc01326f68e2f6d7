/**
 * How a dose of the vaccine schedule shows its status, on the schedule tab and on the
 * timeline's doses due (kept apart from the tab so that the timeline does not load it).
 */
import type { VaccineScheduleAnswer } from '../../../shared/vaccines/schedule-setting';

type DoseStatus = VaccineScheduleAnswer['doses'][number]['status'];

export const STATUS_STYLES: Record<DoseStatus, string> = {
  Done: 'bg-surface-muted text-muted-foreground',
  Overdue: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  Due: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  Upcoming: 'bg-teal-50 text-teal-900 dark:bg-teal-950 dark:text-teal-200',
};
