/** The medication screens; the detail shows the times of day as one row. */
import { useTranslation } from 'react-i18next';
import { medicationDefinition } from '../../../shared/records';
import { NO_SET_TIME_LABEL, TIMES_OF_DAY } from '../../../shared/records/medications';
import { AdherenceSummary } from '../doses/adherence-summary';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { keepsSupply, SupplySummary } from './medication-supply';

export { MedicationsListPage as ListPage } from './medications-list-page';

export function DetailPage() {
  const { t } = useTranslation();
  return (
    <RecordDetailPage
      definition={medicationDefinition}
      customisation={{
        hiddenFields: [...TIMES_OF_DAY.map(({ field }) => field), 'no_set_time'],
        extraRows: (medication) => {
          const ticked = TIMES_OF_DAY.filter(({ field }) => medication[field]).map(({ label }) =>
            t(label),
          );
          const times = medication.no_set_time ? [t(NO_SET_TIME_LABEL)] : ticked;
          return [
            ...(times.length ? [{ label: t('Time of Day'), value: times.join(', ') }] : []),
            {
              label: t('Adherence (30 days)'),
              value: <AdherenceSummary medication={medication} />,
            },
            ...(keepsSupply(medication)
              ? [{ label: t('Supply'), value: <SupplySummary medication={medication} /> }]
              : []),
          ];
        },
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={medicationDefinition} />;
}
