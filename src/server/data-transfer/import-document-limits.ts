/**
 * What one import may ask of the documents' pipeline (decision 0049), the same for an archive
 * of 'Download my data' and for a FHIR Bundle. Each document an import brings in is prepared
 * (typed, cleaned, thumbnailed) and then read for search, so an import is held to:
 *   - at most MAX_IMPORT_DOCUMENTS documents (rows of an archive, DocumentReferences of a
 *     Bundle) that are not already here;
 *   - at most documentBudgetBytes of them, each counted with its file's size, a file named
 *     by several counted once for each: 2,048 MB (the default storage limit), or the
 *     account's storage limit when it is larger. An import asks no more work than filling an
 *     account does, however often the file repeats itself; the storage limit itself is held
 *     apart, on the bytes kept (a file once).
 * Both are checked from what the file says before a byte of a document is read, by the
 * preview as by the import; past either, nothing is imported.
 */
import { ApiError } from '../../shared/api-error';
import { DEFAULT_DOCUMENT_QUOTA_MB } from '../../shared/documents';
import { formatNumber } from '../../shared/dates';
import { tr } from '../../shared/i18n/translate';

/**
 * Documents an import brings in: twice the heavy user's 500 of the search benchmark. An
 * account that holds more brings its documents in by several files.
 */
export const MAX_IMPORT_DOCUMENTS = 1_000;

const MB = 1024 * 1024;

/** The bytes of documents an import brings in, at least (the default storage limit). */
export const IMPORT_DOCUMENT_BUDGET_BYTES = DEFAULT_DOCUMENT_QUOTA_MB * MB;

/** The bytes of documents an import brings in, for an account of this storage limit. */
export const documentBudgetBytes = (quotaBytes: number) =>
  Math.max(quotaBytes, IMPORT_DOCUMENT_BUDGET_BYTES);
const count = (value: number) => formatNumber(value);

export const tooManyDocumentsMessage = (documents: number) =>
  tr(
    'This file brings in {number} documents; an import brings in at most {most}. Nothing was imported.',
    { count: documents, number: count(documents), most: count(MAX_IMPORT_DOCUMENTS) },
  );

export const tooMuchDocumentWorkMessage = (bytes: number, budgetBytes: number) =>
  tr(
    "This file's documents come to {size} MB (a file counted once for each document that names it); an import brings in at most {most} MB of documents. Nothing was imported.",
    { size: count(Math.ceil(bytes / MB)), most: count(Math.floor(budgetBytes / MB)) },
  );

/** Refuses (413, field `file`) an import that would bring in more documents than an import takes. */
export function checkDocumentCount(documents: number): void {
  if (documents > MAX_IMPORT_DOCUMENTS) {
    throw new ApiError(413, tooManyDocumentsMessage(documents), 'file');
  }
}

/**
 * Refuses (413, field `file`) an import whose documents' bytes, each document counted with its
 * file's size, are more than an import brings in for an account of this storage limit.
 */
export function checkDocumentBytes(bytes: number, quotaBytes: number): void {
  const budgetBytes = documentBudgetBytes(quotaBytes);
  if (bytes > budgetBytes) {
    throw new ApiError(413, tooMuchDocumentWorkMessage(bytes, budgetBytes), 'file');
  }
}
