/**
 * The account's settings beside its name, changed one at a time from Profile Settings:
 * 'Vaccine Schedule' and 'Units' (CONTRACT §5). A setting not sent keeps its value.
 */
import { z } from 'zod';
import { LANGUAGE_CODES } from './i18n/languages';
import { key, tr } from './i18n/translate';
import { BODY_NOT_OBJECT } from './api-error';
import { choiceWithDefault } from './records/fields';
import { UNIT_SYSTEM_LABELS, UNIT_SYSTEMS, UNITS_LABEL } from './units';
import { DEFAULT_VACCINE_SCHEDULE, VACCINE_SCHEDULE_CHOICES } from './vaccines/schedule-setting';

export const vaccineScheduleField = choiceWithDefault(
  key('Vaccine Schedule'),
  VACCINE_SCHEDULE_CHOICES,
  DEFAULT_VACCINE_SCHEDULE,
  { labels: { none: key('None'), 'us-cdc': key('United States (CDC)') } },
);

const unitsSettingSchema = z.enum(UNIT_SYSTEMS, {
  error: () =>
    tr('{label} must be one of: {choices}', {
      label: tr(UNITS_LABEL),
      choices: UNIT_SYSTEMS.map((system) => tr(UNIT_SYSTEM_LABELS[system])).join(', '),
    }),
});

const languageSettingSchema = z.enum(LANGUAGE_CODES, {
  error: () =>
    tr('{label} must be one of: {choices}', {
      label: tr('Language'),
      choices: LANGUAGE_CODES.join(', '),
    }),
});

export const accountSettingsSchema = z.object(
  {
    vaccine_schedule: vaccineScheduleField.schema.optional(),
    units: unitsSettingSchema.optional(),
    language: languageSettingSchema.optional(),
  },
  { error: () => tr(BODY_NOT_OBJECT) },
);
