/**
 * The health history screens. The form's rule (SPEC.md §4): with Family History on, a
 * required Relation and no member; off, the member picker and no relation. The shared
 * schema enforces the same rule on the server.
 */
import { conditionDefinition } from '../../../shared/records';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage, type FieldRule } from '../records/record-form-page';
import { ConditionBadges } from './conditions-list-page';

export { ConditionsListPage as ListPage } from './conditions-list-page';

const familyHistoryRule: FieldRule = (name, values) => {
  const familyHistory = values.is_family_history === true;
  if (name === 'relation') return familyHistory ? 'required' : 'hidden';
  if (name === 'family_member_id') return familyHistory ? 'hidden' : 'shown';
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
