/** /notes: letters, referrals and personal notes, newest first, with a two-line preview. */
import { FileText } from 'lucide-react';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { noteDefinition } from '../../../shared/records';
import type { StoredRecord } from '../../../shared/records/definition';
import { EmptyState } from '../../components/ui/feedback';
import {
  Badge,
  RecordCard,
  RecordCards,
  RecordListScreen,
  RecordPlainList,
} from '../records/record-list-parts';

type Note = StoredRecord<typeof noteDefinition>;

function NoteCard({ note }: { note: Note }) {
  return (
    <RecordCard
      definition={noteDefinition}
      id={note.id}
      title={note.title}
      badges={note.note_type ? <Badge>{note.note_type}</Badge> : null}
      member={{ name: note.family_member_name, color: note.family_member_color }}
      details={
        <>
          {note.note_date ? (
            <span className="block">{formatDate(note.note_date, DAY_GROUP_FORMAT)}</span>
          ) : null}
          {note.content ? (
            <span className="line-clamp-2-safe block text-foreground/80">{note.content}</span>
          ) : null}
        </>
      }
    />
  );
}

export function NotesListPage() {
  return (
    <RecordListScreen definition={noteDefinition} addLabel="Add Note">
      <RecordPlainList
        definition={noteDefinition}
        render={(list) =>
          list.items.length === 0 ? (
            <EmptyState icon={FileText} title="No notes yet" />
          ) : (
            <RecordCards list={list} renderItem={(note) => <NoteCard note={note} />} />
          )
        }
      />
    </RecordListScreen>
  );
}
