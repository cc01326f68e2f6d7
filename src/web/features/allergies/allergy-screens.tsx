/**
 * The allergy screens: the list (active ones first, the severe ones marked), and the
 * generic detail and form.
 */
import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { allergyDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { SevereBadge } from '../../components/severe-badge';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';
import { choiceLabel } from '../records/record-phrases';

type Allergy = StoredRecord<typeof allergyDefinition>;

export function AllergyBadges({ allergy }: { allergy: Allergy }) {
  const { fields } = allergyDefinition;
  return (
    <>
      {allergy.severity === 'Severe' ? (
        <SevereBadge />
      ) : allergy.severity ? (
        <Badge>{choiceLabel(fields.severity, allergy.severity)}</Badge>
      ) : null}
      {allergy.category ? <Badge>{choiceLabel(fields.category, allergy.category)}</Badge> : null}
      {allergy.status !== 'Active' ? (
        <Badge>{choiceLabel(fields.status, allergy.status)}</Badge>
      ) : null}
    </>
  );
}

function AllergyCard({ allergy }: { allergy: Allergy }) {
  const { t } = useTranslation();
  return (
    <RecordCard
      definition={allergyDefinition}
      id={allergy.id}
      title={allergy.substance}
      badges={<AllergyBadges allergy={allergy} />}
      member={{ name: allergy.family_member_name, color: allergy.family_member_color }}
      dimmed={allergy.status !== 'Active'}
      details={
        <>
          {allergy.reaction ? <span className="block">{allergy.reaction}</span> : null}
          {allergy.noted_date ? (
            <span className="block">
              {t('Noted {date}', { date: formatDate(allergy.noted_date, DAY_GROUP_FORMAT) })}
            </span>
          ) : null}
        </>
      }
    />
  );
}

export function ListPage() {
  return (
    <RecordCardsPage
      definition={allergyDefinition}
      addLabel={key('Add Allergy')}
      empty={{ icon: ShieldAlert, title: key('No allergies recorded yet') }}
      renderItem={(allergy) => <AllergyCard allergy={allergy} />}
    />
  );
}

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={allergyDefinition}
      customisation={{
        hiddenFields: ['severity', 'category'],
        badges: (allergy) => <AllergyBadges allergy={allergy} />,
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={allergyDefinition} />;
}
