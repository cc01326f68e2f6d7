/** /contacts: healthcare contacts by name. */
import { BookUser } from 'lucide-react';
import { contactDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';

type Contact = StoredRecord<typeof contactDefinition>;

function ContactCard({ contact }: { contact: Contact }) {
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
