/** /notes: letters, referrals and personal notes, newest first, with a two-line preview. */
import { FileText } from 'lucide-react';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { noteDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { Badge, RecordCard, RecordCardsPage } from '../records/record-list-parts';
import { choiceLabel } from '../records/record-phrases';

type Note = StoredRecord<typeof noteDefinition>;

function NoteCard({ note }: { note: Note }) {
  return (
    <RecordCard
      definition={noteDefinition}
      id={note.id}
      title={note.title}
      badges={
        note.note_type ? (
          <Badge>{choiceLabel(noteDefinition.fields.note_type, note.note_type)}</Badge>
        ) : null
      }
      member={{ name: note.family_member_name, color: note.family_member_color }}
      details={
        <>
          {note.note_date ? (
            <span className="block">{formatDate(note.note_date, DAY_GROUP_FORMAT)}</span>
          ) : null}
          {note.content ? (
            <span className="line-clamp-2-safe text-foreground/80">{note.content}</span>
          ) : null}
        </>
      }
    />
  );
}

export function NotesListPage() {
  return (
    <RecordCardsPage
      definition={noteDefinition}
      addLabel={key('Add Note')}
      empty={{ icon: FileText, title: key('No notes yet') }}
      renderItem={(note) => <NoteCard note={note} />}
    />
  );
}
