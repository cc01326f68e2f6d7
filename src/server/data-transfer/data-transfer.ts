/**
 * Export and import of a user's whole data. The export is every family member and record
 * of the user, as stored. The import checks every row with the same schemas as the API,
 * recognises what is already here (import-plan.ts), gives every new row a new id (keeping
 * each record with its member), and writes a batch at a time (import-writes.ts): a failed
 * import leaves nothing behind. Checking a large file is done a slice at a time, so the
 * server answers other requests meanwhile.
 */
import type { Kysely } from 'kysely';
import {
  EXPORTED_ACCOUNT_HOLDER,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type DataExport,
  type ExportedDocument,
  type ExportedRow,
  type ImportFile,
  type ImportSummary,
} from '../../shared/data-export';
import { AS_NEEDED, type DoseMark } from '../../shared/doses';
import {
  importPreview,
  type ChangedChoice,
  type ImportCounts,
  type ImportPreview,
} from '../../shared/import-preview';
import { familyMemberSchema } from '../../shared/family-members';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition, RecordTable } from '../../shared/records/definition';
import { withUntimedAsNoSetTime } from '../../shared/records/medications';
import { ownedRow, ownedRows, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { badRequest } from '../http/errors';
import { firstIssue } from '../http/validation';
import { newId, nowTimestamp } from '../ids';
import { personsOfContacts } from '../records/record-persons';
import { recordRows } from '../records/record-rows';
import { createDocumentRecords } from '../documents/document-records';
import type { ArchiveFiles } from './import-archive';
import {
  checkDocumentFiles,
  checkDocuments,
  countDocuments,
  documentsStored,
  matchDocuments,
  recordKey,
  writeDocuments,
  type CheckedDocument,
  type DocumentImportDependencies,
  type DocumentMatch,
} from './import-documents';
import { MATCH_SLICE, countMatches, matchRecords, nextTurn, type RecordMatch } from './import-plan';
import { writeImport } from './import-writes';
import type { ImportNote } from '../imports/import-history';
import { tr } from '../../shared/i18n/translate';

/** An archive's files, and what an import needs to keep them as documents. */
export interface ImportArchive {
  files: ArchiveFiles;
  deps: DocumentImportDependencies;
}

export const INSERT_BATCH = 500;
/** Rows checked between two turns of the event loop. */
const CHECK_SLICE = 500;

function stripOwner(row: Record<string, unknown>): ExportedRow {
  const { user_id: _owner, ...rest } = row;
  return rest as ExportedRow;
}

export async function exportUserData(db: Kysely<DB>, userId: string): Promise<DataExport> {
  const profile = await ownedRows(db, 'user', userId)
    .select(['name', 'email'])
    .executeTakeFirstOrThrow();
  const members = await ownedRows(db, 'family_members', userId)
    .select(['id', 'name', 'date_of_birth', 'sex', 'color', 'created_at', 'updated_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const records = {} as Record<RecordTable, ExportedRow[]>;
  for (const definition of recordDefinitions) {
    const rows = recordRows(definition as RecordDefinition);
    const stored = await ownedRows(db, definition.table, userId)
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    records[definition.table] = stored.map((row) => {
      // Who last changed a record is an account id of this server: not part of the data.
      const {
        family_member_name: _name,
        family_member_color: _color,
        changed_by: _changedBy,
        ...record
      } = rows.fromRow(row);
      return stripOwner(record);
    });
  }
  // Each contact with the persons it cares for, the account holder by the file's own name.
  const persons = await personsOfContacts(db, userId, 'all');
  for (const contact of records.contacts) {
    contact.person_ids = (persons.get(contact.id) ?? []).map((id) =>
      id === userId ? EXPORTED_ACCOUNT_HOLDER : id,
    );
  }
  const doseLog = (await ownedRows(db, 'dose_log', userId)
    .select(['id', 'medication_id', 'day', 'slot', 'status', 'marked_at'])
    .orderBy('day')
    .orderBy('id')
    .execute()) as DoseMark[];
  // Each document with its person and its records; its file goes beside the JSON (an archive).
  const documents = await ownedRows(db, 'documents', userId)
    .select(['id', 'family_member_id', 'title', 'document_type', 'document_date', 'file_name'])
    .select(['mime_type', 'size_bytes', 'sha256'])
    .select(['created_at', 'updated_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const attached = await documentRecordsOf(db, userId, records, documents);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    profile: { full_name: profile.name, email: profile.email },
    family_members: members as ExportedRow[],
    records,
    dose_log: doseLog,
    // Its type and kind are the ones an upload was checked for.
    documents: documents.map((row) => {
      const ofDocument = attached.get(row.id) ?? [];
      return {
        ...row,
        size_bytes: Number(row.size_bytes),
        record_type: ofDocument[0]?.record_type ?? null,
        record_id: ofDocument[0]?.record_id ?? null,
        records: ofDocument,
      } as ExportedDocument;
    }),
  };
}

/**
 * The records each document is attached to, those the file holds of the document's own
 * person only (an attachment to a record since removed, or moved to someone else, would
 * not import).
 */
async function documentRecordsOf(
  db: Kysely<DB>,
  userId: string,
  records: Record<RecordTable, ExportedRow[]>,
  documents: readonly { id: string; family_member_id: string | null }[],
): Promise<Map<string, { record_type: string; record_id: string }[]>> {
  const personOfRecord = new Map<string, string | null>();
  for (const definition of recordDefinitions) {
    for (const row of records[definition.table]) {
      const member = (row.family_member_id as string | null | undefined) ?? null;
      personOfRecord.set(recordKey(definition.path, row.id), member);
    }
  }
  const personOfDocument = new Map(documents.map((row) => [row.id, row.family_member_id]));
  const attached = new Map<string, { record_type: string; record_id: string }[]>();
  for (const link of await createDocumentRecords(db).ofOwner(userId)) {
    const person = personOfRecord.get(recordKey(link.record_type, link.record_id));
    if (person === undefined || person !== personOfDocument.get(link.document_id)) continue;
    const list = attached.get(link.document_id) ?? [];
    list.push({ record_type: link.record_type, record_id: link.record_id });
    attached.set(link.document_id, list);
  }
  return attached;
}

function refuse(
  where: string,
  error: { issues: Parameters<typeof firstIssue>[0]['issues'] },
): never {
  const issue = firstIssue(error);
  throw badRequest(tr('{where}: {message}', { where, message: issue.message }), issue.field);
}

/** Inserts rows a few hundred at a time (SQLite and PostgreSQL bound a statement's values). */
export async function insertAll(
  db: Kysely<DB>,
  table:
    | 'family_members'
    | 'fhir_import_sources'
    | 'dose_log'
    | 'contact_persons'
    | 'documents'
    | 'document_records'
    | RecordTable,
  rows: Record<string, unknown>[],
) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + INSERT_BATCH) as never)
      .execute();
  }
}

/** A record of the file, checked by its type's schema. */
interface CheckedRecord {
  fileId: string;
  fileMemberId: string | null;
  values: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

interface CheckedFile {
  members: {
    fileId: string;
    values: Record<string, unknown>;
    created_at: string;
    updated_at: string;
  }[];
  records: { definition: RecordDefinition; items: CheckedRecord[] }[];
  doses: ImportFile['dose_log'];
  documents: CheckedDocument[];
}

/**
 * Every row of the file checked with the API's own schemas, a slice at a time: a refusal
 * names the row and the field, before anything is read from the account.
 */
async function checkFile(file: ImportFile): Promise<CheckedFile> {
  const memberIds = new Set<string>();
  const members = file.family_members.map((member, index) => {
    const parsed = familyMemberSchema.safeParse(member);
    if (!parsed.success) {
      refuse(tr('Family member {number}', { number: index + 1 }), parsed.error);
    }
    if (memberIds.has(member.id))
      throw badRequest(tr('Family member {number}: the id appears twice', { number: index + 1 }));
    memberIds.add(member.id);
    return {
      fileId: member.id,
      values: parsed.data as Record<string, unknown>,
      created_at: member.created_at,
      updated_at: member.updated_at,
    };
  });
  const records: CheckedFile['records'] = [];
  const medicationIds = new Set<string>();
  /** Each record of the file, by its type's path and its id: its member (for documents). */
  const recordMembers = new Map<string, string | null>();
  for (const definition of recordDefinitions as readonly RecordDefinition[]) {
    const items: CheckedRecord[] = [];
    const { personsField } = recordRows(definition);
    for (const [index, item] of (file.records[definition.table] ?? []).entries()) {
      if (index % CHECK_SLICE === CHECK_SLICE - 1) await nextTurn();
      // A file written before 'No set time' existed says nothing of it.
      const parsed = definition.schema.safeParse(
        definition.type === 'medication' ? withUntimedAsNoSetTime(item) : item,
      );
      if (!parsed.success) {
        refuse(
          tr('{noun} {number}', { noun: tr(definition.noun), number: index + 1 }),
          parsed.error,
        );
      }
      const values = parsed.data as Record<string, unknown>;
      const memberId = definition.memberLinked ? values.family_member_id : null;
      if (typeof memberId === 'string' && !memberIds.has(memberId)) {
        throw badRequest(
          tr('{noun} {number}: its family member is not in the file', {
            noun: tr(definition.noun),
            number: index + 1,
          }),
          'family_member_id',
        );
      }
      if (personsField) {
        // The persons a contact cares for: members of the file, or the account holder.
        for (const personId of values[personsField] as string[]) {
          if (!memberIds.has(personId) && personId !== EXPORTED_ACCOUNT_HOLDER) {
            throw badRequest(
              tr('{noun} {number}: {field} names a person who is not in the file', {
                noun: tr(definition.noun),
                number: index + 1,
                field: tr(definition.fields[personsField]?.label ?? ''),
              }),
              personsField,
            );
          }
        }
      }
      if (definition.table === 'medications') medicationIds.add(item.id);
      recordMembers.set(
        recordKey(definition.path, item.id),
        typeof memberId === 'string' ? memberId : null,
      );
      items.push({
        fileId: item.id,
        fileMemberId: typeof memberId === 'string' ? memberId : null,
        values,
        created_at: item.created_at,
        updated_at: item.updated_at,
      });
    }
    records.push({ definition, items });
  }
  file.dose_log.forEach((dose, index) => {
    if (!medicationIds.has(dose.medication_id)) {
      throw badRequest(
        tr('Dose {number}: its medication is not in the file', { number: index + 1 }),
        'medication_id',
      );
    }
  });
  const documents = checkDocuments(file, memberIds, recordMembers);
  return { members, records, doses: file.dose_log, documents };
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

interface FilePlan {
  members: MemberMatch[];
  /** Each member of the file, by its id in the file: its id here (new ones get one now). */
  memberIds: Map<string, string>;
  records: { definition: RecordDefinition; items: CheckedRecord[]; matches: RecordMatch[] }[];
  documents: DocumentMatch[];
}

async function planUserImport(
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

/** Replaces the fields of records here with the file's; how many were replaced. */
export async function replaceRecords(
  db: Kysely<DB>,
  userId: string,
  definition: RecordDefinition,
  replacements: readonly { id: string; values: Record<string, unknown> }[],
  now: string,
): Promise<number> {
  const rows = recordRows(definition);
  for (const { id, values } of replacements) {
    const { family_member_id: _member, ...fields } = rows.toRow(values);
    await updateOwned(db, definition.table, userId)
      .set({ ...fields, updated_at: now } as never)
      .where('id', '=', id)
      .execute();
  }
  return replacements.length;
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

async function writeUserImport(
  database: Kysely<DB>,
  userId: string,
  checked: CheckedFile,
  plan: FilePlan,
  changed: ChangedChoice,
  {
    archive,
    kept,
    history,
  }: { archive: ImportArchive | undefined; kept: string[]; history: ImportNote | undefined },
): Promise<Omit<ImportSummary, 'documents'> & { documentIds: string[] }> {
  return writeImport(
    database,
    userId,
    async (writes) => {
      const now = nowTimestamp();
      const replace = (match: RecordMatch): match is { kind: 'changed'; id: string } =>
        match.kind === 'changed' && changed === 'replace';
      let alreadyHere = 0;
      let replaced = 0;

      const memberRows: Record<string, unknown>[] = [];
      for (const [index, member] of checked.members.entries()) {
        const match = plan.members[index]!;
        if (match.kind === 'new') {
          memberRows.push(
            ownedRow(userId, {
              id: plan.memberIds.get(member.fileId),
              ...member.values,
              created_at: member.created_at,
              updated_at: member.updated_at,
            }),
          );
        } else if (replace(match)) {
          await writes.step(async (db) => {
            await updateOwned(db, 'family_members', userId)
              .set({ ...member.values, updated_at: now } as never)
              .where('id', '=', match.id)
              .execute();
          });
          replaced += 1;
        } else alreadyHere += 1;
      }
      await writes.insert('family_members', memberRows);

      let records = 0;
      const contactPersons: Record<string, unknown>[] = [];
      /** Each medication's id in the file, and its id here (for the dose log). */
      const medicationIds = new Map<string, string>();
      /** Each record of the file (recordKey), and its id here (for documents attached to it). */
      const recordIds = new Map<string, string>();
      for (const { definition, items, matches } of plan.records) {
        const rows = recordRows(definition);
        const { personsField } = rows;
        const fresh: Record<string, unknown>[] = [];
        const replacements: { id: string; values: Record<string, unknown> }[] = [];
        for (const [index, item] of items.entries()) {
          if (index % MATCH_SLICE === MATCH_SLICE - 1) await nextTurn();
          const match = matches[index]!;
          const id = match.kind === 'new' ? newId() : match.id;
          if (definition.table === 'medications') medicationIds.set(item.fileId, id);
          recordIds.set(recordKey(definition.path, item.fileId), id);
          if (match.kind === 'new' && personsField) {
            // The persons a new contact cares for, as they are called here (none: the whole family).
            for (const personId of item.values[personsField] as string[]) {
              const member = plan.memberIds.get(personId);
              contactPersons.push(
                ownedRow(userId, {
                  contact_id: id,
                  person_id: member ?? userId,
                  family_member_id: member ?? null,
                }),
              );
            }
          }
          if (match.kind === 'new') {
            fresh.push(
              ownedRow(userId, {
                id,
                ...rows.toRow(item.values),
                ...(definition.memberLinked
                  ? {
                      family_member_id:
                        item.fileMemberId === null ? null : plan.memberIds.get(item.fileMemberId),
                    }
                  : {}),
                created_at: item.created_at,
                updated_at: item.updated_at,
              }),
            );
          } else if (replace(match)) replacements.push({ id: match.id, values: item.values });
          else alreadyHere += 1;
        }
        records += fresh.length;
        await writes.insert(definition.table, fresh);
        replaced += await writes.replace(definition, replacements, now);
      }

      const marked = new Set<string>();
      const scheduled = new Set<string>();
      for (const dose of await ownedRows(database, 'dose_log', userId)
        .select(['medication_id', 'day', 'slot', 'marked_at'])
        .execute()) {
        scheduled.add(`${dose.medication_id} ${dose.day} ${dose.slot}`);
        marked.add(`${dose.medication_id} ${dose.day} ${dose.slot} ${dose.marked_at}`);
      }
      const doseRows = checked.doses.flatMap((dose) => {
        const medicationId = medicationIds.get(dose.medication_id)!;
        const slotKey = `${medicationId} ${dose.day} ${dose.slot}`;
        const key = `${slotKey} ${dose.marked_at}`;
        // A scheduled dose has one mark; an as-needed dose is the same dose at the same moment.
        if (marked.has(key) || (dose.slot !== AS_NEEDED && scheduled.has(slotKey))) return [];
        marked.add(key);
        scheduled.add(slotKey);
        return [
          ownedRow(userId, {
            ...dose,
            id: newId(),
            medication_id: medicationId,
            marked_by: userId,
          }),
        ];
      });
      await writes.insert('dose_log', doseRows);
      await writes.insert('contact_persons', contactPersons, 'contact_id');
      alreadyHere += plan.documents.filter((match) => match.kind === 'same').length;
      const documentIds = archive
        ? await writeDocuments(writes, {
            userId,
            documents: checked.documents,
            matches: plan.documents,
            memberIds: plan.memberIds,
            recordIds,
            files: archive.files,
            deps: archive.deps,
            kept,
          })
        : [];
      return {
        family_members: memberRows.length,
        records,
        doses: doseRows.length,
        already_here: alreadyHere,
        replaced,
        documentIds,
      };
    },
    history,
  );
}
