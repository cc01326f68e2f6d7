/**
 * The health history screens. The form's rule (SPEC.md §4): with Family History on, a
 * required Relation (and, for the account holder, no member picker: a family member chosen
 * first keeps theirs); off, no relation. The shared schema enforces the same on the server.
 */
import { conditionDefinition } from '../../../shared/records';
import { RecordDetailPage } from '../records/record-detail-page';
import { type FieldRule } from '../records/record-form-fields';
import { RecordFormPage } from '../records/record-form-page';
import { ConditionBadges } from './conditions-list-page';

export { ConditionsListPage as ListPage } from './conditions-list-page';

const familyHistoryRule: FieldRule = (name, values) => {
  const familyHistory = values.is_family_history === true;
  if (name === 'relation') return familyHistory ? 'required' : 'hidden';
  // The account holder's family history has no member select (SPEC.md §4); a member's keeps
  // it, the relation being to that member (issue 33.3).
  if (name === 'family_member_id')
    return familyHistory && !values.family_member_id ? 'hidden' : 'shown';
  return undefined;
};

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={conditionDefinition}
      customisation={{
        hiddenFields: ['is_family_history', 'status'],
        badges: (condition) => <ConditionBadges condition={condition} />,
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={conditionDefinition} fieldRule={familyHistoryRule} />;
}
