/**
 * Documents (CONTRACT §5 'Documents'): the papers of a person's record, uploaded as PDF or
 * image files and kept beside the record they belong to. What both sides know of them: the
 * types, the kinds of file, the limits and the refusals' words. What an upload says of its
 * file is checked in document-upload.ts, so a page that only shows documents (a share link's
 * viewer) loads no validation library.
 */
import { key } from './i18n/translate';
import type { ImportedFrom } from './imports';

export const DOCUMENT_TYPES = [
  key('Lab Report'),
  key('Letter'),
  key('Referral'),
  key('Imaging'),
  key('Insurance Card'),
  key('Prescription'),
  key('Other'),
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The kinds of file a document may be, by their bytes. */
export const DOCUMENT_MIME_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  // A C-CDA an import keeps as it came (CONTRACT §6); never taken from an upload.
  'application/xml',
] as const;
export type DocumentMimeType = (typeof DOCUMENT_MIME_TYPES)[number];

/** What the file input offers: on a phone, the image types also offer the camera. */
export const DOCUMENT_ACCEPT =
  '.pdf,.heic,.heif,application/pdf,image/jpeg,image/png,image/webp,image/heic,image/heif';

/**
 * The copy a browser shows of a file it cannot show itself: a HEIC photo's JPEG, or a
 * C-CDA's narrative as HTML (its sections' titles and text, nothing the file could run).
 */
export function displayTypeOf(mimeType: string): { type: string; extension: string } {
  return mimeType === 'application/xml'
    ? { type: 'text/html; charset=utf-8', extension: '.html' }
    : { type: 'image/jpeg', extension: '.jpg' };
}

/** The name a display copy goes by: the original's, ending as its type does ('.jpg'). */
export const displayFileName = (name: string, mimeType: string) =>
  name.replace(/\.[^.]*$/, '') + displayTypeOf(mimeType).extension;

export const MAX_DOCUMENT_MB = 25;
export const MAX_DOCUMENT_BYTES = MAX_DOCUMENT_MB * 1024 * 1024;
/** The default storage limit of an account (DOCUMENT_QUOTA_MB). */
export const DEFAULT_DOCUMENT_QUOTA_MB = 2048;

/** A key: the English names MAX_DOCUMENT_MB. */
export const DOCUMENT_TOO_LARGE_MESSAGE = key('The file is larger than 25 MB');
export const DOCUMENT_KIND_MESSAGE = key('Only PDF and image files can be uploaded');
export const DOCUMENT_EMPTY_MESSAGE = key('The file is empty');
export const DOCUMENT_QUOTA_MESSAGE = key('This file would go past your storage limit');
export const DOCUMENT_NOT_FOUND_MESSAGE = key('Document not found');
export const DOCUMENT_RECORD_MESSAGE = key('The record to attach to was not found');
/** A record of another person than the document's (a document is attached to its own person's). */
export const DOCUMENT_OTHER_PERSON_MESSAGE =
  "The record is another person's: attach a document to its own person's records";
/** The most records one document may be attached to. */
export const MAX_DOCUMENT_RECORDS = 100;

/** A record a document is attached to, or may be: what names it beside its type and id. */
export interface DocumentAttachment {
  /** The record type's path: visits, insurance, history… */
  record_type: string;
  record_id: string;
  /** Its title field's value: a timestamp when `title_kind` is 'datetime' (a vitals entry). */
  title: string;
  title_kind: 'text' | 'datetime';
  /** The date it is known by (a visit's timestamp, a lab's collected date…), or null. */
  date: string | null;
}

/** GET /api/persons/{personId}/attachable-records: the records a document of theirs may be attached to. */
export interface AttachableRecords {
  records: DocumentAttachment[];
}

export interface StoredDocument {
  id: string;
  user_id: string;
  family_member_id: string | null;
  person_name: string | null;
  title: string;
  document_type: DocumentType;
  document_date: string | null;
  file_name: string;
  mime_type: DocumentMimeType;
  size_bytes: number;
  /** The thumbnail's address (content-addressed: cached for good), or null. */
  thumbnail_url: string | null;
  /** Where the browser shows it (a HEIC photo's JPEG); the original is `file_url`. */
  view_url: string;
  file_url: string;
  /** The records it is attached to (those of its person the request may read), by type. */
  records: DocumentAttachment[];
  /** The import that brought it in, when one did: 'Imported from {file} on {date}'. */
  imported_from?: ImportedFrom | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentPage {
  documents: StoredDocument[];
  total: number;
}

export interface DocumentUsage {
  usedBytes: number;
  limitBytes: number;
}

/** Where the reading of a document's text is (documents/text/document-text.ts on the server). */
export type DocumentTextStatus = 'pending' | 'reading' | 'done' | 'failed';

/**
 * GET /api/documents/{id}/text: the text once it is read ('done'), else where it is. A text
 * read from fewer than all of a long document's pages (the reading's limits, decision 0050)
 * says from how many (`pagesRead`) of its `pages`.
 */
export interface DocumentTextAnswer {
  status: DocumentTextStatus;
  /** Why a text that failed could not be read, where that is known: a PDF locked by a password. */
  reason?: 'locked';
  text?: string;
  pagesRead?: number;
  pages?: number;
}
