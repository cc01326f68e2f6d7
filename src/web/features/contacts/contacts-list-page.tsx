/** /contacts: healthcare contacts by name. */
import { BookUser } from 'lucide-react';
import { contactDefinition } from '../../../shared/records';
import { CARES_FOR_LABEL } from '../../../shared/records/contacts';
import { usePersonNames } from '../family-members/person-names';
import type { StoredRecord } from '../../../shared/records/definition';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';

type Contact = StoredRecord<typeof contactDefinition>;

function ContactCard({ contact }: { contact: Contact }) {
  const personNames = usePersonNames();
  return (
    <RecordCard
      definition={contactDefinition}
      id={contact.id}
      title={contact.contact_name}
      badges={<Badge>{contact.contact_type}</Badge>}
      details={
        <>
          {contact.specialty ? <span className="block">{contact.specialty}</span> : null}
          {contact.phone_number ? <span className="block">{contact.phone_number}</span> : null}
          <span className="block">
            <span className="sr-only">{CARES_FOR_LABEL}: </span>
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
      addLabel="Add Contact"
      topLevel
      empty={{ icon: BookUser, title: 'No contacts yet' }}
      renderItem={(contact) => <ContactCard contact={contact} />}
    />
  );
}
