/**
 * The account's settings beside its name, changed one at a time from Profile Settings:
 * 'Vaccine Schedule' and 'Units' (CONTRACT §5). A setting not sent keeps its value.
 */
import { z } from 'zod';
import { BODY_NOT_OBJECT } from './api-error';
import { unitsSettingSchema } from './units';
import { vaccineScheduleField } from './vaccines/schedule-setting';

export const accountSettingsSchema = z.object(
  {
    vaccine_schedule: vaccineScheduleField.schema.optional(),
    units: unitsSettingSchema.optional(),
  },
  { error: BODY_NOT_OBJECT },
);
