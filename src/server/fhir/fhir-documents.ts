/**
 * Documents both ways. Out: a document as a DocumentReference with its file (written by
 * $everything). In: DocumentReferences that carry a file (a PDF, a scan, a photo): which
 * attachment is the file, where its bytes are (in the attachment, or in a Binary of the
 * same bundle; an address outside the bundle is never fetched), and the document's title,
 * Document Type and date. A DocumentReference with only text is a note (mappings/notes.ts).
 * Nothing here decides what the bytes are: the import stores them as an upload is stored
 * (documents/document-intake.ts), which types them by their bytes.
 */
import type { Attachment, DocumentReference, Reference, Resource } from '@medplum/fhirtypes';
import {
  DOCUMENT_TYPES,
  displayFileName,
  displayTypeOf,
  type DocumentType,
} from '../../shared/documents';
import { SYSTEM, calendarDate, referenceTo, textOf } from './fhir-elements';
import { key } from '../../shared/i18n/translate';
import type { DocumentWithFile, FhirRecordType } from './fhir-source';
import type { MappingContext } from './mappings/mapping';

/**
 * A document read from a bundle, to be stored as an upload is: one per file, however many
 * DocumentReferences name it (a Binary named by several, or the same bytes written out in
 * each), its title, type, date and name the first one's, attached to every record they name.
 */
export interface ImportedDocument {
  /**
   * Where it came from, the same on every import of the same file: each DocumentReference
   * that names the file, the first first.
   */
  source_ids: string[];
  /** Their own ids: the document's id here when the file is this product's export. */
  document_ids: string[];
  title: string;
  document_type: DocumentType;
  /** `YYYY-MM-DD`, when the bundle gives one. */
  document_date: string | null;
  file_name: string;
  /** The file, base64, as the bundle holds it. */
  data: string;
  /** The file's size, in bytes, as its base64 says. */
  size_bytes: number;
  /** The records it is attached to, each named by the source of the record it was read as. */
  records: { type: FhirRecordType; source_id: string }[];
}

/** A document of the bundle that was not brought in, and why. */
export interface SkippedDocument {
  title: string;
  reason: string;
}

/** Why a document was not brought in: keys, said in the reader's language by the summary. */
export const EXTERNAL_FILE_REASON = key(
  'its file is at an address outside the Bundle, which Kin Health does not fetch',
);
export const MISSING_FILE_REASON = key('its file is not in the Bundle');
export const ENTERED_IN_ERROR_REASON = key('it was entered in error');

const TEXT = /^text\/(plain|markdown)\b/i;
const DOCUMENT_KIND = /^(application\/pdf|image\/)/i;

/**
 * The attachment that is a file: one that is not text and has its bytes or an address, a
 * PDF or an image first. None: the DocumentReference is a note, or carries nothing.
 */
export function fileAttachmentOf(document: DocumentReference): Attachment | undefined {
  const files = (document.content ?? [])
    .map((content) => content.attachment)
    .filter(
      (attachment) =>
        !TEXT.test(attachment.contentType ?? '') && (attachment.data || attachment.url),
    );
  return files.find((attachment) => DOCUMENT_KIND.test(attachment.contentType ?? '')) ?? files[0];
}

/** LOINC document kinds for the Document Types that have one (Other has none). */
export const DOCUMENT_TYPE_LOINC: Readonly<Record<string, { code: string; display: string }>> = {
  'Lab Report': { code: '11502-2', display: 'Laboratory report' },
  Letter: { code: '51852-2', display: 'Letter' },
  Referral: { code: '57133-1', display: 'Referral note' },
  Imaging: { code: '18748-4', display: 'Diagnostic imaging study' },
  'Insurance Card': { code: '64290-0', display: 'Health insurance card' },
  Prescription: { code: '57833-6', display: 'Prescription for medication' },
};

const TYPE_OF_LOINC = new Map(
  Object.entries(DOCUMENT_TYPE_LOINC).map(([type, { code }]) => [code, type as DocumentType]),
);

/** One of our Document Types, by a LOINC code of its type or the words of its type or category. */
function documentTypeOf(document: DocumentReference): DocumentType {
  const concepts = [document.type, ...(document.category ?? [])];
  for (const concept of concepts) {
    for (const coding of concept?.coding ?? []) {
      const type = coding.system === SYSTEM.loinc && TYPE_OF_LOINC.get(coding.code ?? '');
      if (type) return type;
    }
  }
  for (const concept of concepts) {
    const words = textOf(concept)?.trim().toLowerCase();
    const type = DOCUMENT_TYPES.find((name) => name.toLowerCase() === words);
    if (type) return type;
  }
  return 'Other';
}

/** What a file document says of itself, its texts as the bundle has them (not yet fitted). */
export type DocumentReading =
  | {
      title: string;
      file_name: string | null;
      document_type: DocumentType;
      document_date: string | null;
      data: string;
    }
  | { skipped: SkippedDocument };

/**
 * Reads a DocumentReference whose file is `attachment`. `resolve` finds a resource of the
 * bundle (and notes it as read: a Binary taken here is not skipped on its own).
 */
export function readFileDocument(
  document: DocumentReference,
  attachment: Attachment,
  resolve: (reference: Reference) => Resource | undefined,
): DocumentReading {
  const title = document.description ?? attachment.title ?? textOf(document.type) ?? 'Document';
  const skipped = (reason: string) => ({ skipped: { title, reason } });
  if (document.status === 'entered-in-error') return skipped(ENTERED_IN_ERROR_REASON);
  let data = attachment.data;
  if (!data && attachment.url) {
    const binary = resolve({ reference: attachment.url });
    if (!binary) return skipped(EXTERNAL_FILE_REASON);
    data = binary.resourceType === 'Binary' ? binary.data : undefined;
  }
  if (!data) return skipped(MISSING_FILE_REASON);
  return {
    title,
    file_name: attachment.title ?? null,
    document_type: documentTypeOf(document),
    document_date:
      calendarDate(attachment.creation) ?? calendarDate(document.context?.period?.start),
    data,
  };
}

// ---- export ---------------------------------------------------------------------------

/**
 * A document as a DocumentReference: its type (LOINC where there is one, and the app's own
 * word), its date, the records it is attached to (context.related: `relatedIds`, the ids of
 * the records' resources in the bundle, the first where a record is several, as a vitals
 * entry is), and the file as the attachment; a HEIC photo's JPEG, the copy a browser
 * shows, as a second one. The `data` of each is given by the caller: the bundle writes the
 * base64 itself, as it reads the file.
 */
export function documentReferenceResource(
  document: DocumentWithFile,
  attachment: { data: string; displayData?: string },
  context: MappingContext,
  relatedIds: readonly string[] = document.record_ids,
): DocumentReference {
  const loinc = DOCUMENT_TYPE_LOINC[document.document_type];
  const creation = document.document_date ? { creation: document.document_date } : {};
  return {
    resourceType: 'DocumentReference',
    id: document.id,
    status: 'current',
    type: {
      ...(loinc ? { coding: [{ system: 'http://loinc.org', ...loinc }] } : {}),
      text: document.document_type,
    },
    subject: context.patient,
    date: document.created_at,
    description: document.title,
    content: [
      {
        attachment: {
          contentType: document.mime_type,
          data: attachment.data,
          title: document.file_name,
          size: document.size_bytes,
          ...creation,
        },
      },
      ...(document.display && attachment.displayData !== undefined
        ? [
            {
              attachment: {
                contentType: displayTypeOf(document.mime_type).type,
                data: attachment.displayData,
                title: displayFileName(document.file_name, document.mime_type),
                size: document.display.size_bytes,
                ...creation,
              },
            },
          ]
        : []),
    ],
    ...(relatedIds.length > 0
      ? { context: { related: relatedIds.map((id) => referenceTo(id)) } }
      : {}),
  };
}
