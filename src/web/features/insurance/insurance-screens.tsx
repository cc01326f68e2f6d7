/** The insurance screens; a policy with no status shows as current (SPEC.md §4). */
import { insuranceDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { insuranceStatusOf } from '../../../shared/records/insurance';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { Badge } from '../records/record-list-parts';
import { choiceLabel } from '../records/record-phrases';

type Insurance = StoredRecord<typeof insuranceDefinition>;

/** A policy's kind and whether it is current, under its title. */
function PolicyBadges({ policy }: { policy: Insurance }) {
  return (
    <>
      <Badge tone="primary">
        {choiceLabel(insuranceDefinition.fields.insurance_type, policy.insurance_type)}
      </Badge>
      <Badge>
        {choiceLabel(insuranceDefinition.fields.status, insuranceStatusOf(policy.status))}
      </Badge>
    </>
  );
}

export { InsuranceListPage as ListPage } from './insurance-list-page';

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={insuranceDefinition}
      customisation={{
        hiddenFields: ['status'],
        badges: (policy) => <PolicyBadges policy={policy} />,
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={insuranceDefinition} />;
}
