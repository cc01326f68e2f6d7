/** A person's vaccine schedule, and whether it is tracked. */
import type {
  VaccineScheduleAnswer,
  VaccineTracking,
} from '../../../shared/vaccines/schedule-setting';
import { queryString, request } from '../../lib/api-request';

export const vaccineScheduleApi = {
  /** A person's vaccine plan, its statuses as of the browser's `today`. */
  get: (personId: string, today: string) =>
    request<VaccineScheduleAnswer>(
      'GET',
      `/persons/${encodeURIComponent(personId)}/vaccine-schedule${queryString({ today })}`,
    ),
  /** The schedule turned on or off for one of the user's members. */
  setTracking: (personId: string, tracked: boolean) =>
    request<VaccineTracking>(
      'PUT',
      `/persons/${encodeURIComponent(personId)}/vaccine-schedule/tracking`,
      { tracked } satisfies VaccineTracking,
    ),
};
