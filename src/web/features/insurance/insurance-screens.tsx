/** The insurance screens; a policy with no status shows as current (SPEC.md §4). */
import { insuranceDefinition } from '../../../shared/records';
import { insuranceStatusOf } from '../../../shared/records/insurance';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { Badge } from '../records/record-list-parts';

export { InsuranceListPage as ListPage } from './insurance-list-page';

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={insuranceDefinition}
      customisation={{
        hiddenFields: ['status'],
        badges: (policy) => (
          <>
            <Badge tone="primary">{policy.insurance_type}</Badge>
            <Badge>{insuranceStatusOf(policy.status) === 'current' ? 'Current' : 'Past'}</Badge>
          </>
        ),
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={insuranceDefinition} />;
}
