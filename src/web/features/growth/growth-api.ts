/** A child's measurements for the growth charts. */
import { MAX_PAGE_SIZE } from '../../../shared/constants';
import { queryString, request } from '../../lib/api-request';
import type { RecordPage } from '../../../shared/records/definition';

/**
 * A vitals row as the generic list route answers it (the columns of the `vitals` table), with
 * only what the growth screen reads.
 */
export interface VitalsRow {
  id: string;
  family_member_id: string | null;
  measured_at: string;
  weight_kg: number | null;
  height_cm: number | null;
  head_circumference_cm: number | null;
}

export const growthApi = {
  /**
   * One page of a family member's vitals, from the generic list route of the 'vital' record
   * type. INTEGRATION: once the vitals definition is merged this may become
   * `recordsApi(vitalDefinition).list({ member, limit, offset })`; the route and shape are the same.
   */
  vitalsPage: (member: string, offset: number) =>
    request<RecordPage<VitalsRow>>(
      'GET',
      `/vitals${queryString({ member, limit: MAX_PAGE_SIZE, offset })}`,
    ),
};
