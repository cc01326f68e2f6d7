/**
 * Notes both ways: a note is a DocumentReference whose one attachment is its text (UTF-8,
 * base64). In, a DocumentReference of text only is a note; one with a file is a document
 * (fhir-documents.ts).
 */
import type { DocumentReference } from '@medplum/fhirtypes';
import { NOTE_TYPES } from '../../../shared/records/notes';
import { calendarDate, pick, textConcept, textOf } from '../fhir-elements';
import type { FhirRows } from '../fhir-source';
import { SKIP, one, type MapResult, type MappingContext } from './mapping';

export const NOTE_CONTENT_TYPE = 'text/plain; charset=utf-8';

export function noteResource(note: FhirRows['note'], context: MappingContext): DocumentReference {
  return {
    resourceType: 'DocumentReference',
    id: note.id,
    status: 'current',
    type: textConcept(note.note_type),
    subject: context.patient,
    description: note.title,
    content: [
      {
        attachment: {
          contentType: NOTE_CONTENT_TYPE,
          title: note.title,
          data: note.content ? Buffer.from(note.content, 'utf8').toString('base64') : undefined,
        },
      },
    ],
    context: note.note_date ? { period: { start: note.note_date } } : undefined,
  };
}

// ---- import ---------------------------------------------------------------------------

/** A DocumentReference of text only: a note. (One with a file is a document: fhir-documents.ts.) */
export function documentRecord(document: DocumentReference): MapResult {
  if (document.status === 'entered-in-error') return SKIP;
  const attachments = document.content.map((content) => content.attachment);
  const text = attachments.find(
    (a) => a.data && /^text\/(plain|markdown)\b/i.test(a.contentType ?? ''),
  );
  const content = text?.data ? Buffer.from(text.data, 'base64').toString('utf8') : null;
  return one('note', {
    title: document.description ?? attachments[0]?.title ?? textOf(document.type) ?? 'Document',
    note_type: pick(NOTE_TYPES, textOf(document.type)),
    note_date: calendarDate(document.context?.period?.start) ?? calendarDate(document.date),
    content,
  });
}
