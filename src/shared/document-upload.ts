/**
 * What is said of a document (CONTRACT §5 'Documents', §6 'Documents after upload'), checked
 * on the server and by an archive's import: at upload, its title, type, date, person and the
 * record it belongs to; at an edit, the same and every record it is attached to; attaching
 * one more record.
 */
import { tr } from './i18n/translate';
import { z } from 'zod';
import { BODY_NOT_OBJECT } from './api-error';
import { isCalendarDate } from './date-values';
import { DOCUMENT_TYPES, MAX_DOCUMENT_RECORDS } from './documents';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

const title = z
  .string({ error: () => tr('Title is required') })
  .trim()
  .min(1, { error: () => tr('Title is required') })
  .max(200, { error: () => tr('Title must be at most 200 characters') });

const documentType = z.enum(DOCUMENT_TYPES, { error: () => tr('Choose a Document Type') });

/** A calendar date, or nothing ('' and null say none). */
const documentDate = z
  .string({ error: () => tr('Document Date must be a date') })
  .nullish()
  .transform((value) => (value ? value : undefined))
  .refine((value) => value === undefined || isCalendarDate(value), {
    error: () => tr('Document Date must be a date'),
  });

/** A record, by its type's path (visits, insurance…) and its id. */
export const documentRecordSchema = z.object({
  record_type: z
    .string({ error: () => tr('record_type is required') })
    .trim()
    .min(1, { error: () => tr('record_type is required') })
    .max(40),
  record_id: z
    .string({ error: () => tr('record_id is required') })
    .trim()
    .min(1, { error: () => tr('record_id is required') })
    .max(64),
});
export type DocumentRecord = z.infer<typeof documentRecordSchema>;

/** What an upload says of its file, in the query string (the body is the file itself). */
export const documentUploadSchema = z.object({
  title,
  document_type: documentType,
  document_date: documentDate,
  family_member_id: optionalText(64),
  file_name: optionalText(255),
  /** The record it belongs to: the record type's path (visits, insurance…) and its id. */
  record_type: optionalText(40),
  record_id: optionalText(64),
});
export type DocumentUpload = z.infer<typeof documentUploadSchema>;

/**
 * PUT /api/documents/{id}: the document as it is to be. `family_member_id` names its person
 * (none: the account holder, as a record's); `records`, every record it is attached to, when
 * given: left out, it keeps those it has that are still its person's.
 */
export const documentEditSchema = z.object(
  {
    title,
    document_type: documentType,
    document_date: documentDate,
    family_member_id: z
      .string({ error: () => tr('Family Member must be a person') })
      .trim()
      .max(64)
      .nullish()
      .transform((value) => (value ? value : undefined)),
    records: z
      .array(documentRecordSchema, { error: () => tr('Attached To must be a list of records') })
      .max(MAX_DOCUMENT_RECORDS, {
        error: () => tr('Attached To: at most {max} records', { max: MAX_DOCUMENT_RECORDS }),
      })
      .optional(),
  },
  { error: () => tr(BODY_NOT_OBJECT) },
);
export type DocumentEdit = z.input<typeof documentEditSchema>;
