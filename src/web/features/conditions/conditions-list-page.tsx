/** /history: the user's and the family's conditions, newest diagnosis first. */
import { HeartPulse } from 'lucide-react';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { conditionDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';

type Condition = StoredRecord<typeof conditionDefinition>;

export function ConditionBadges({ condition }: { condition: Condition }) {
  return (
    <>
      {condition.is_family_history ? <Badge tone="warning">Family History</Badge> : null}
      {condition.status ? <Badge tone="primary">{condition.status}</Badge> : null}
    </>
  );
}

function ConditionCard({ condition }: { condition: Condition }) {
  return (
    <RecordCard
      definition={conditionDefinition}
      id={condition.id}
      title={condition.condition_name}
      badges={<ConditionBadges condition={condition} />}
      member={{ name: condition.family_member_name, color: condition.family_member_color }}
      details={
        <>
          {condition.diagnosis_date ? (
            <span className="block">
              Diagnosed {formatDate(condition.diagnosis_date, DAY_GROUP_FORMAT)}
            </span>
          ) : null}
          {condition.relation ? (
            <span className="block">Relation: {condition.relation}</span>
          ) : null}
        </>
      }
    />
  );
}

export function ConditionsListPage() {
  return (
    <RecordCardsPage
      definition={conditionDefinition}
      addLabel="Add Condition"
      empty={{ icon: HeartPulse, title: 'No health conditions recorded yet' }}
      renderItem={(condition) => <ConditionCard condition={condition} />}
    />
  );
}
