/** /history: the user's and the family's conditions, newest diagnosis first. */
import { HeartPulse } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { conditionDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';
import { choiceLabel } from '../records/record-phrases';

type Condition = StoredRecord<typeof conditionDefinition>;

export function ConditionBadges({ condition }: { condition: Condition }) {
  const { t } = useTranslation();
  return (
    <>
      {condition.is_family_history ? (
        <Badge tone="warning">{t(conditionDefinition.fields.is_family_history.label)}</Badge>
      ) : null}
      {condition.status ? (
        <Badge tone="primary">
          {choiceLabel(conditionDefinition.fields.status, condition.status)}
        </Badge>
      ) : null}
    </>
  );
}

function ConditionCard({ condition }: { condition: Condition }) {
  const { t } = useTranslation();
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
              {t('Diagnosed {date}', {
                date: formatDate(condition.diagnosis_date, DAY_GROUP_FORMAT),
              })}
            </span>
          ) : null}
          {condition.relation ? (
            <span className="block">
              {t('Relation: {relation}', { relation: condition.relation })}
            </span>
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
      addLabel={key('Add Condition')}
      empty={{ icon: HeartPulse, title: key('No health conditions recorded yet') }}
      renderItem={(condition) => <ConditionCard condition={condition} />}
    />
  );
}
