/** The shot screens. */
import { localToday } from '../../../shared/dates';
import { shotDefinition } from '../../../shared/records';
import { isShotGiven } from '../../../shared/records/shots';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';

export { ShotsListPage as ListPage } from './shots-list-page';

export function DetailPage() {
  return <RecordDetailPage definition={shotDefinition} />;
}

/** A shot just recorded as given (dated today or earlier) is shown under 'Past'. */
function listAfterCreate(saved: Record<string, unknown>): string {
  const date = typeof saved.date_administered === 'string' ? saved.date_administered : null;
  return date && isShotGiven(date, localToday()) ? '/shots?tab=past' : '/shots';
}

export function FormPage() {
  return <RecordFormPage definition={shotDefinition} listAfterCreate={listAfterCreate} />;
}
