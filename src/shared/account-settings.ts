/**
 * The account's settings beside its name, changed one at a time from Profile Settings:
 * 'Vaccine Schedule' and 'Units' (CONTRACT §5). A setting not sent keeps its value.
 */
import { z } from 'zod';
import { LANGUAGE_CODES } from './i18n/languages';
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

const languageSettingSchema = z.enum(LANGUAGE_CODES, {
  error: `Language must be one of: ${LANGUAGE_CODES.join(', ')}`,
});

export const accountSettingsSchema = z.object(
  {
    vaccine_schedule: vaccineScheduleField.schema.optional(),
    units: unitsSettingSchema.optional(),
    language: languageSettingSchema.optional(),
  },
  { error: BODY_NOT_OBJECT },
);
