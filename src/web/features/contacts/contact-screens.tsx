/** The contact screens. */
import { contactDefinition } from '../../../shared/records';
import { RecordDetailPage } from '../records/record-detail-page';
import { RecordFormPage } from '../records/record-form-page';
import { Badge } from '../records/record-list-parts';
import { choiceLabel } from '../records/record-phrases';

export { ContactsListPage as ListPage } from './contacts-list-page';

export function DetailPage() {
  return (
    <RecordDetailPage
      definition={contactDefinition}
      customisation={{
        hiddenFields: ['contact_type'],
        badges: (contact) => (
          <Badge tone="primary">
            {choiceLabel(contactDefinition.fields.contact_type, contact.contact_type)}
          </Badge>
        ),
      }}
    />
  );
}

export function FormPage() {
  return <RecordFormPage definition={contactDefinition} />;
}
