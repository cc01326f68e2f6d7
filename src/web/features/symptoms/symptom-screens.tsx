/**
 * The symptom screens (CONTRACT §6): the list, newest first, each with its severity and how
 * long it lasted, and the generic detail and form.
 */
import { Thermometer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber, LONG_DATE_TIME_FORMAT } from '../../../shared/dates';
import { symptomDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { SEVERITY_MAX } from '../../../shared/records/symptoms';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';

type Symptom = StoredRecord<typeof symptomDefinition>;

export function SeverityBadge({ severity }: { severity: number | null }) {
  const { t } = useTranslation();
  return severity === null ? null : (
    <Badge>
      {t('Severity {severity}/{max}', {
        severity: formatNumber(severity),
        max: formatNumber(SEVERITY_MAX),
      })}
    </Badge>
  );
}

function SymptomCard({ symptom }: { symptom: Symptom }) {
  const { t } = useTranslation();
  return (
    <RecordCard
      definition={symptomDefinition}
      id={symptom.id}
      title={symptom.symptom}
      badges={<SeverityBadge severity={symptom.severity} />}
      member={{ name: symptom.family_member_name, color: symptom.family_member_color }}
      details={
        <span className="block">
          {formatDate(symptom.started_at, LONG_DATE_TIME_FORMAT)}
          {symptom.ended_at
            ? ` – ${formatDate(symptom.ended_at, LONG_DATE_TIME_FORMAT)}`
            : ` · ${t('Ongoing')}`}
        </span>
      }
    />
  );
}

export function ListPage() {
  const { t } = useTranslation();
  return (
    <RecordCardsPage
      definition={symptomDefinition}
      addLabel={t('Add Symptom')}
      empty={{ icon: Thermometer, title: t('No symptoms recorded yet') }}
      renderItem={(symptom) => <SymptomCard symptom={symptom} />}
    />
  );
}

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={symptomDefinition}
      customisation={{
        hiddenFields: ['severity'],
        badges: (symptom) => <SeverityBadge severity={symptom.severity} />,
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={symptomDefinition} />;
}
