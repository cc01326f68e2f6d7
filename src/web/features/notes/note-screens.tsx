/** The note screens. */
import { noteDefinition } from '../../../shared/records';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';

export { NotesListPage as ListPage } from './notes-list-page';

export function DetailPage() {
  return <RecordDetailPage definition={noteDefinition} />;
}

export function FormPage() {
  return <RecordFormPage definition={noteDefinition} />;
}
