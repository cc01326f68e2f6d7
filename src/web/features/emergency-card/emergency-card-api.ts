/** A person's emergency card. */
import type { EmergencyCard } from '../../../shared/emergency-card';
import { emergencyCardPath } from '../../service-worker/cache-names';
import { localToday } from '../../../shared/date-values';
import { queryString, send } from '../../lib/api-request';

export const emergencyCardApi = {
  /** The person's emergency card as of the reader's date (kept on the device by the worker). */
  get: async (personId: string): Promise<EmergencyCard> =>
    (await send(`${emergencyCardPath(personId)}${queryString({ today: localToday() })}`)).json(),
};
