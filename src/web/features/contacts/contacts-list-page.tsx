/** /contacts: healthcare contacts by name. */
import { BookUser } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { contactDefinition } from '../../../shared/records';
import { CARES_FOR_LABEL } from '../../../shared/records/contacts';
import { usePersonNames } from '../family-members/person-names';
import type { StoredRecord } from '../../../shared/records/definition';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';
import { choiceLabel } from '../records/record-phrases';

type Contact = StoredRecord<typeof contactDefinition>;

function ContactCard({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  const personNames = usePersonNames();
  return (
    <RecordCard
      definition={contactDefinition}
      id={contact.id}
      title={contact.contact_name}
      badges={
        <Badge>{choiceLabel(contactDefinition.fields.contact_type, contact.contact_type)}</Badge>
      }
      details={
        <>
          {contact.specialty ? <span className="block">{contact.specialty}</span> : null}
          {contact.phone_number ? <span className="block">{contact.phone_number}</span> : null}
          <span className="block">
            <span className="sr-only">{t(CARES_FOR_LABEL)}: </span>
            {personNames(contact.person_ids)}
          </span>
        </>
      }
    />
  );
}

export function ContactsListPage() {
  return (
    <RecordCardsPage
      definition={contactDefinition}
      addLabel={key('Add Contact')}
      topLevel
      empty={{ icon: BookUser, title: key('No contacts yet') }}
      renderItem={(contact) => <ContactCard contact={contact} />}
    />
  );
}
