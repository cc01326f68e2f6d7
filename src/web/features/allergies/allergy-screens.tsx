/**
 * The allergy screens: the list (active ones first, the severe ones marked), and the
 * generic detail and form.
 */
import { ShieldAlert } from 'lucide-react';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { allergyDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { SevereBadge } from '../../components/severe-badge';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';

type Allergy = StoredRecord<typeof allergyDefinition>;

export function AllergyBadges({ allergy }: { allergy: Allergy }) {
  return (
    <>
      {allergy.severity === 'Severe' ? (
        <SevereBadge />
      ) : allergy.severity ? (
        <Badge>{allergy.severity}</Badge>
      ) : null}
      {allergy.category ? <Badge>{allergy.category}</Badge> : null}
      {allergy.status !== 'Active' ? <Badge>{allergy.status}</Badge> : null}
    </>
  );
}

function AllergyCard({ allergy }: { allergy: Allergy }) {
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
            <span className="block">Noted {formatDate(allergy.noted_date, DAY_GROUP_FORMAT)}</span>
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
      addLabel="Add Allergy"
      empty={{ icon: ShieldAlert, title: 'No allergies recorded yet' }}
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
