/** The medication screens; the detail shows the times of day as one row. */
import { medicationDefinition } from '../../../shared/records';
import { TIMES_OF_DAY } from '../../../shared/records/medications';
import { AdherenceSummary } from '../doses/adherence-summary';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';

export { MedicationsListPage as ListPage } from './medications-list-page';

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={medicationDefinition}
      customisation={{
        hiddenFields: TIMES_OF_DAY.map(({ field }) => field),
        extraRows: (medication) => {
          const times = TIMES_OF_DAY.filter(({ field }) => medication[field]).map(
            ({ label }) => label,
          );
          return [
            ...(times.length ? [{ label: 'Time of Day', value: times.join(', ') }] : []),
            {
              label: 'Adherence (30 days)',
              value: <AdherenceSummary medicationId={medication.id} />,
            },
          ];
        },
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={medicationDefinition} />;
}
