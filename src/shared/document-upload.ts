/**
 * What an upload says of its file (CONTRACT §5 'Documents'), checked on the server and by
 * an archive's import: the title, type, date, person and the record it belongs to.
 */
import { z } from 'zod';
import { DOCUMENT_TYPES } from './documents';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

/** What an upload says of its file, in the query string (the body is the file itself). */
export const documentUploadSchema = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(200, 'Title must be at most 200 characters'),
  document_type: z.enum(DOCUMENT_TYPES, { error: 'Choose a Document Type' }),
  document_date: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || /^\d{4}-\d{2}-\d{2}$/.test(value), {
      message: 'Document Date must be a date',
    }),
  family_member_id: optionalText(64),
  file_name: optionalText(255),
  /** The record it belongs to: the record type's path (visits, insurance…) and its id. */
  record_type: optionalText(40),
  record_id: optionalText(64),
});
export type DocumentUpload = z.infer<typeof documentUploadSchema>;
