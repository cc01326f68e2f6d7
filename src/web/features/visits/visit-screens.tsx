/** The visit screens: the list is its own; detail and form are the generic ones. */
import { key } from '../../../shared/i18n/translate';
import { visitDefinition } from '../../../shared/records';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';

export { VisitsListPage as ListPage } from './visits-list-page';

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={visitDefinition}
      customisation={{ labels: { doctor_name: key('Doctor'), visit_date: key('Date') } }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={visitDefinition} />;
}
