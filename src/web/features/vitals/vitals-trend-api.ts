/** A person's vitals over time, for the trend charts. */
import type { VitalsTrendAnswer } from '../../../shared/vitals-trend';
import { request } from '../../lib/api-request';

export const vitalsTrendApi = {
  /** Every vitals entry of one person, oldest first, with their date of birth. */
  get: (personId: string) =>
    request<VitalsTrendAnswer>('GET', `/persons/${encodeURIComponent(personId)}/vitals`),
};
