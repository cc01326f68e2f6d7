/** The shot screens. */
import { shotDefinition } from '../../../shared/records';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';

export { ShotsListPage as ListPage } from './shots-list-page';

export function DetailPage() {
  return <RecordDetailPage definition={shotDefinition} />;
}

export function FormPage() {
  return <RecordFormPage definition={shotDefinition} />;
}
