/**
 * The vaccine schedules the product knows, each one set of supporting data. A schedule of
 * another country is another entry here with its own data files (docs/decisions/0028).
 */
import { key, tr } from '../i18n/translate';
import usCdcAntigens from './reference/us-cdc/antigens.json' with { type: 'json' };
import usCdcSchedule from './reference/us-cdc/schedule.json' with { type: 'json' };
import type { AntigenData, ScheduleData, SupportingData } from './cdsi-data';

export const vaccineScheduleIds = ['us-cdc'] as const;
export type VaccineScheduleId = (typeof vaccineScheduleIds)[number];

export interface VaccineSchedule {
  id: VaccineScheduleId;
  label: string;
  /** Named on the screen beside the schedule: where the advice comes from, in the language in force. */
  source: () => string;
  data: SupportingData;
}

export const vaccineSchedules: Record<VaccineScheduleId, VaccineSchedule> = {
  'us-cdc': {
    id: 'us-cdc',
    label: key('United States (CDC)'),
    source: () => tr('CDC CDSi supporting data v{version}', { version: usCdcAntigens.version }),
    data: {
      antigens: usCdcAntigens as AntigenData,
      schedule: usCdcSchedule as ScheduleData,
    },
  },
};
