/**
 * Documents (CONTRACT §5 'Documents'): the papers of a person's record, uploaded as PDF or
 * image files and kept beside the record they belong to. What both sides know of them: the
 * types, the kinds of file, the limits and the refusals' words. What an upload says of its
 * file is checked in document-upload.ts, so a page that only shows documents (a share link's
 * viewer) loads no validation library.
 */
export const DOCUMENT_TYPES = [
  'Lab Report',
  'Letter',
  'Referral',
  'Imaging',
  'Insurance Card',
  'Prescription',
  'Other',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** The kinds of file a document may be, by their bytes. */
export const DOCUMENT_MIME_TYPES = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
] as const;
export type DocumentMimeType = (typeof DOCUMENT_MIME_TYPES)[number];

/** What the file input offers: on a phone, the image types also offer the camera. */
export const DOCUMENT_ACCEPT =
  '.pdf,.heic,.heif,application/pdf,image/jpeg,image/png,image/webp,image/heic,image/heif';

/** The name a display copy (a HEIC photo's JPEG) goes by: the original's, ending in .jpg. */
export const displayFileName = (name: string) => name.replace(/\.[^.]*$/, '') + '.jpg';

export const MAX_DOCUMENT_MB = 25;
export const MAX_DOCUMENT_BYTES = MAX_DOCUMENT_MB * 1024 * 1024;
/** The default storage limit of an account (DOCUMENT_QUOTA_MB). */
export const DEFAULT_DOCUMENT_QUOTA_MB = 2048;

export const DOCUMENT_TOO_LARGE_MESSAGE = `The file is larger than ${MAX_DOCUMENT_MB} MB`;
export const DOCUMENT_KIND_MESSAGE = 'Only PDF and image files can be uploaded';
export const DOCUMENT_EMPTY_MESSAGE = 'The file is empty';
export const DOCUMENT_QUOTA_MESSAGE = 'This file would go past your storage limit';
export const DOCUMENT_NOT_FOUND_MESSAGE = 'Document not found';
export const DOCUMENT_RECORD_MESSAGE = 'The record to attach to was not found';

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
  record_type: string | null;
  record_id: string | null;
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

/** Where the reading of a document's text is (search/document-text.ts on the server). */
export type DocumentTextStatus = 'pending' | 'reading' | 'done' | 'failed';

/** GET /api/documents/{id}/text: the text once it is read ('done'), else where it is. */
export interface DocumentTextAnswer {
  status: DocumentTextStatus;
  text?: string;
}
