/**
 * Import of a user's whole data from an export file. The import checks every row with the
 * same schemas as the API (import-check.ts), recognises what is already here
 * (import-user-plan.ts), gives every new row a new id (keeping each record with its member),
 * and writes a batch at a time (import-user-writes.ts): a failed import leaves nothing
 * behind. Checking a large file is done a slice at a time, so the server answers other
 * requests meanwhile.
 */
import type { Kysely } from 'kysely';
import { EXPORT_FORMAT, type ImportFile, type ImportSummary } from '../../shared/data-export';
import {
  importPreview,
  type ChangedChoice,
  type ImportCounts,
  type ImportPreview,
} from '../../shared/import-preview';
import type { DB } from '../db/schema';
import type { ImportNote } from '../imports/import-history';
import { checkFile } from './import-check';
import { countDocuments, documentsStored } from './import-documents';
import { countMatches } from './import-plan';
import { planUserImport, type ImportArchive } from './import-user-plan';
import { writeUserImport } from './import-user-writes';

/** Checks an export file and says what importing it here would do; writes nothing. */
export async function previewUserImport(
  db: Kysely<DB>,
  userId: string,
  file: ImportFile,
  archive?: ImportArchive,
): Promise<ImportPreview> {
  const plan = await planUserImport(db, userId, await checkFile(file), archive);
  const counts: ImportCounts = {};
  countMatches(counts, 'family_member', plan.members);
  for (const { definition, matches } of plan.records)
    countMatches(counts, definition.type, matches);
  countDocuments(counts, plan.documents);
  return importPreview(EXPORT_FORMAT, counts);
}

/**
 * Imports a checked export file: members and records that are new here are added (each
 * with a new id, kept with its member), the ones already here are left, and the ones here
 * but changed are kept or replaced as asked; a dose is added unless its medication here
 * has it already.
 */
export async function importUserData(
  database: Kysely<DB>,
  userId: string,
  file: ImportFile,
  changed: ChangedChoice = 'keep',
  archive?: ImportArchive,
  /** How Import History remembers it (none: not remembered). */
  history?: ImportNote,
): Promise<ImportSummary> {
  const checked = await checkFile(file);
  const plan = await planUserImport(database, userId, checked, archive);
  /** The documents' files kept by this import: taken back should it fail. */
  const kept: string[] = [];
  try {
    const summary = await writeUserImport(database, userId, checked, plan, changed, {
      archive,
      kept,
      history,
    });
    if (archive) await documentsStored(archive.deps, userId, summary.documentIds);
    const { documentIds, ...answer } = summary;
    return { ...answer, documents: documentIds.length };
  } catch (error) {
    // Its rows are gone (import-writes.ts): the files no document keeps now go too.
    if (archive) await archive.deps.documents.releaseFiles(userId, kept);
    throw error;
  }
}
