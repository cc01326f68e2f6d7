/**
 * The account's settings beside its name, changed one at a time from Profile Settings:
 * 'Vaccine Schedule' and 'Units' (CONTRACT §5). A setting not sent keeps its value.
 */
import { z } from 'zod';
import { BODY_NOT_OBJECT } from './api-error';
import { choiceWithDefault } from './records/fields';
import { UNIT_SYSTEMS, UNITS_LABEL } from './units';
import { DEFAULT_VACCINE_SCHEDULE, VACCINE_SCHEDULE_CHOICES } from './vaccines/schedule-setting';

export const vaccineScheduleField = choiceWithDefault(
  'Vaccine Schedule',
  VACCINE_SCHEDULE_CHOICES,
  DEFAULT_VACCINE_SCHEDULE,
  { labels: { none: 'None', 'us-cdc': 'United States (CDC)' } },
);

const unitsSettingSchema = z.enum(UNIT_SYSTEMS, {
  error: `${UNITS_LABEL} must be one of: Metric, US`,
});

export const accountSettingsSchema = z.object(
  {
    vaccine_schedule: vaccineScheduleField.schema.optional(),
    units: unitsSettingSchema.optional(),
  },
  { error: BODY_NOT_OBJECT },
);
