/** Export files for the import's tests, as 'Download my data' writes them. */
import { sampleRecord } from './factories';

const AT = '2026-03-04T09:30:00.000Z';

/** An export file of `visits` visits of the account holder ('visit-0'…), and `documents`. */
export function exportFileOf(visits: number, documents: object[] = []) {
  return {
    format: 'kin-health-export',
    version: 2,
    exported_at: AT,
    profile: { full_name: 'Ann', email: 'ann@example.com' },
    family_members: [],
    records: {
      visits: Array.from({ length: visits }, (_, index) => ({
        ...sampleRecord('visit', { visit_name: `Checkup ${index + 1}` }),
        id: `visit-${index}`,
        family_member_id: null,
        created_at: AT,
        updated_at: AT,
      })),
    },
    dose_log: [],
    documents,
  };
}
