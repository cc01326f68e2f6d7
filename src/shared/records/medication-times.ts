/**
 * A medication's times of day, apart from its definition (medications.ts) so that the
 * screens that only need them (Today's Medications on the timeline) do not load the
 * record forms' rules with them.
 */
import { key } from '../i18n/translate';

/** The four times of day, in the order the current list groups them. */
export const TIMES_OF_DAY = [
  { field: 'time_morning', label: key('Morning') },
  { field: 'time_noon', label: key('Noon') },
  { field: 'time_evening', label: key('Evening') },
  { field: 'time_night', label: key('Night') },
] as const;

/** Where Today's Medications lists the doses of a medication taken at no set time. */
export const ANY_TIME_LABEL = key('Any time');
