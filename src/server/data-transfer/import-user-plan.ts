/**
 * The second step of importing an export file: what is already here. Each member of the
 * file is matched to one of the account's, each record to one of the same person's
 * (import-plan.ts), each document to one the account has; new members get their id here
 * now. Reads only: a preview stops here.
 */
import type { Kysely } from 'kysely';
import type { RecordDefinition } from '../../shared/records/definition';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { newId } from '../ids';
import type { CheckedFile, CheckedRecord } from './import-check';
import type { ArchiveFiles } from './import-archive';
import {
  checkDocumentFiles,
  matchDocuments,
  type DocumentImportDependencies,
  type DocumentMatch,
} from './import-documents';
import { matchRecords, type RecordMatch } from './import-plan';

/** An archive's files, and what an import needs to keep them as documents. */
export interface ImportArchive {
  files: ArchiveFiles;
  deps: DocumentImportDependencies;
}

type MemberMatch = RecordMatch;

/**
 * The account's family member each member of the file is: the same id (the account's own
 * export), else the same name and date of birth; else none, and the member is new.
 */
async function matchMembers(
  db: Kysely<DB>,
  userId: string,
  members: CheckedFile['members'],
): Promise<MemberMatch[]> {
  const existing = await ownedRows(db, 'family_members', userId)
    .select(['id', 'name', 'date_of_birth', 'color'])
    .execute();
  const taken = new Set<string>();
  const nameOf = (name: unknown) =>
    String(name ?? '')
      .trim()
      .toLowerCase();
  return members.map(({ fileId, values }) => {
    const found =
      existing.find((row) => row.id === fileId && !taken.has(row.id)) ??
      existing.find(
        (row) =>
          !taken.has(row.id) &&
          nameOf(row.name) === nameOf(values.name) &&
          (row.date_of_birth ?? null) === (values.date_of_birth ?? null),
      );
    if (!found) return { kind: 'new' };
    taken.add(found.id);
    const equal =
      found.name === values.name &&
      (found.date_of_birth ?? null) === (values.date_of_birth ?? null) &&
      (found.color ?? null) === (values.color ?? null);
    return { kind: equal ? 'same' : 'changed', id: found.id };
  });
}

export interface FilePlan {
  members: MemberMatch[];
  /** Each member of the file, by its id in the file: its id here (new ones get one now). */
  memberIds: Map<string, string>;
  records: { definition: RecordDefinition; items: CheckedRecord[]; matches: RecordMatch[] }[];
  documents: DocumentMatch[];
}

export async function planUserImport(
  db: Kysely<DB>,
  userId: string,
  checked: CheckedFile,
  archive: ImportArchive | undefined,
): Promise<FilePlan> {
  const members = await matchMembers(db, userId, checked.members);
  const memberIds = new Map(
    checked.members.map(({ fileId }, index) => {
      const match = members[index]!;
      return [fileId, match.kind === 'new' ? newId() : match.id];
    }),
  );
  const records: FilePlan['records'] = [];
  for (const { definition, items } of checked.records) {
    // Matched a person at a time: a record is the same only as one of the same person's.
    const byPerson = new Map<string | null, number[]>();
    items.forEach((item, index) => {
      const person = item.fileMemberId === null ? null : memberIds.get(item.fileMemberId)!;
      // Added to in place: a copy per record took minutes over a large file's records.
      const indexes = byPerson.get(person);
      if (indexes) indexes.push(index);
      else byPerson.set(person, [index]);
    });
    const matches: RecordMatch[] = new Array<RecordMatch>(items.length);
    for (const [person, indexes] of byPerson) {
      const found = await matchRecords(
        db,
        userId,
        definition,
        person,
        indexes.map((index) => ({ id: items[index]!.fileId, values: items[index]!.values })),
      );
      indexes.forEach((index, position) => (matches[index] = found[position]!));
    }
    records.push({ definition, items, matches });
  }
  const documents = await matchDocuments(db, userId, checked.documents, memberIds);
  await checkDocumentFiles(db, userId, checked.documents, documents, archive?.files, archive?.deps);
  return { members, memberIds, records, documents };
}
