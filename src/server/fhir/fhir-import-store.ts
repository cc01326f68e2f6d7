/**
 * Puts what a FHIR import read (fhir-import.ts) into a person. Each record of the file is
 * first matched against the person's records (import-plan.ts): one already here is left
 * alone, one here but changed is kept as it is or replaced by the file's, as the user
 * chose, and only a new one is added, with the resource it came from (contacts, the
 * account's own, once per account). The preview is the same matching without the writes.
 * The writes go a batch at a time (import-writes.ts): a failed import leaves nothing behind.
 * A bundle is one person's, so the new contacts it brings care for that person (migration
 * 0020). Its documents (one per file, however many DocumentReferences name it: decision
 * 0049) come after its records, one at a time, each stored as an upload is
 * (document-intake.ts: typed by its bytes, the storage limit held) and attached to the
 * record it belongs to; one refused is skipped with the reason, and the rest go on. A
 * document is remembered by its source as a record is, so a second import adds none again.
 */
import type { Kysely } from 'kysely';
import { ApiError } from '../../shared/api-error';
import type { FhirImportSummary } from '../../shared/fhir';
import {
  importPreview,
  type ChangedChoice,
  type ImportCounts,
  type ImportPreview,
} from '../../shared/import-preview';
import { definitionsByType } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { ownedRow, ownedRows } from '../access/scope';
import { INSERT_BATCH } from '../data-transfer/import-rows';
import { checkDocumentBytes, checkDocumentCount } from '../data-transfer/import-document-limits';
import { WRITE_BATCH, writeImport, type ImportWrites } from '../data-transfer/import-writes';
import {
  MATCH_SLICE,
  countMatches,
  matchRecords,
  nextTurn,
  type RecordMatch,
} from '../data-transfer/import-plan';
import type { DB } from '../db/schema';
import { tr } from '../../shared/i18n/translate';
import { takeDocument, type DocumentIntake } from '../documents/document-intake';
import { createDocumentRecords } from '../documents/document-records';
import { newId, nowTimestamp } from '../ids';
import { noteAdded, type ImportNote } from '../imports/import-history';
import type { Person } from '../persons/person-records';
import { recordRows } from '../records/record-rows';
import type { ImportedDocument, SkippedDocument } from './fhir-documents';
import {
  importSummary,
  type FhirImportResult,
  type ImportedCounts,
  type ImportedRecord,
} from './fhir-import';
import { FHIR_RECORD_TYPES, type FhirRecordType } from './fhir-source';

type ReadBundle = Extract<FhirImportResult, { ok: true }>;

interface TypePlan {
  type: FhirRecordType;
  definition: RecordDefinition;
  /** Whose the records are: the person, or for contacts the account holder. */
  owner: { id: string; family_member_id: string | null };
  records: ImportedRecord<object>[];
  matches: RecordMatch[];
}

interface FhirImportPlan {
  types: TypePlan[];
  /** The bundle's documents, each new or already here (its document's id). */
  documents: RecordMatch[];
  /** What earlier imports into the person brought in, by source. */
  sources: ReadonlyMap<string, string>;
}

/** Each document of the bundle: here already (by its id, or the source it came in from), or new. */
async function matchDocuments(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  documents: readonly ImportedDocument[],
  sources: ReadonlyMap<string, string> = new Map(),
): Promise<RecordMatch[]> {
  if (documents.length === 0) return [];
  const memberId = person.family_member_id;
  const here = await ownedRows(db, 'documents', userId)
    .select('id')
    .where('family_member_id', memberId === null ? 'is' : '=', memberId)
    .execute();
  const ids = new Set(here.map((row) => row.id));
  return documents.map((document) => {
    // Any of the DocumentReferences naming its file, by its id or its source.
    const id = [
      ...document.document_ids,
      ...document.source_ids.map((source) => sources.get(source)),
    ].find((candidate) => candidate !== undefined && ids.has(candidate));
    return id === undefined ? { kind: 'new' } : { kind: 'same', id };
  });
}

/**
 * Refuses, before a file is read, a bundle whose new documents are more than an import
 * takes: each DocumentReference counted, with its file's bytes (import-document-limits.ts).
 */
function checkNewDocuments(
  documents: readonly ImportedDocument[],
  matches: readonly RecordMatch[],
  quotaBytes: number,
) {
  let references = 0;
  let bytes = 0;
  for (const [index, document] of documents.entries()) {
    if (matches[index]!.kind !== 'new') continue;
    references += document.source_ids.length;
    bytes += document.source_ids.length * document.size_bytes;
  }
  checkDocumentCount(references);
  checkDocumentBytes(bytes, quotaBytes);
}

async function planFhirImport(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  bundle: ReadBundle,
  /** The account's storage limit (what an import may bring in follows from it). */
  quotaBytes: number,
): Promise<FhirImportPlan> {
  const sources = new Map<string, Map<string, string>>();
  const earlier = await ownedRows(db, 'fhir_import_sources', userId)
    .select(['person_id', 'source_id', 'record_id'])
    .where('person_id', 'in', [person.id, userId])
    .execute();
  for (const row of earlier) {
    const ofPerson = sources.get(row.person_id) ?? new Map<string, string>();
    ofPerson.set(row.source_id, row.record_id);
    sources.set(row.person_id, ofPerson);
  }
  const plans: TypePlan[] = [];
  for (const type of FHIR_RECORD_TYPES) {
    const definition: RecordDefinition = definitionsByType[type];
    // Contacts are the account's: remembered against the account holder, whoever the file was for.
    const owner = definition.memberLinked ? person : { id: userId, family_member_id: null };
    const records = bundle.records[type] as ImportedRecord<object>[];
    const matches = await matchRecords(
      db,
      userId,
      definition,
      owner.family_member_id,
      records,
      sources.get(owner.id),
      (record) => ({
        id: record.record_id,
        sourceId: record.source_id,
        values: record.values as Record<string, unknown>,
      }),
    );
    plans.push({ type, definition, owner, records, matches });
  }
  const personSources = sources.get(person.id) ?? new Map<string, string>();
  const documents = await matchDocuments(db, userId, person, bundle.documents, personSources);
  checkNewDocuments(bundle.documents, documents, quotaBytes);
  return { types: plans, documents, sources: personSources };
}

/**
 * Notes where each new record came from. A source already noted names a record since
 * deleted here (it came in as new): it now names the new one.
 */
async function rememberSources(db: Kysely<DB>, sources: Record<string, unknown>[]) {
  for (let start = 0; start < sources.length; start += INSERT_BATCH) {
    await db
      .insertInto('fhir_import_sources')
      .values(sources.slice(start, start + INSERT_BATCH) as never)
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'person_id', 'source_id'])
          .doUpdateSet({ record_id: (eb) => eb.ref('excluded.record_id') }),
      )
      .execute();
  }
}

/**
 * What importing the bundle into the person would do, per record type; writes nothing.
 * Refused as the import would be when its documents are more than an import takes.
 */
export async function previewFhirImport(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  bundle: ReadBundle,
  intake: Pick<DocumentIntake, 'quotaBytes'>,
): Promise<ImportPreview> {
  const counts: ImportCounts = {};
  const plan = await planFhirImport(db, userId, person, bundle, intake.quotaBytes);
  for (const { type, matches } of plan.types) countMatches(counts, type, matches);
  if (plan.documents.length > 0) countMatches(counts, 'document', plan.documents);
  return importPreview('fhir', counts, bundle.skipped);
}

/** A document's sources, noted as naming the document here. */
const sourceRows = (userId: string, person: Person, sources: readonly string[], id: string) =>
  sources.map((source_id) =>
    ownedRow(userId, {
      person_id: person.id,
      family_member_id: person.family_member_id,
      source_id,
      record_type: 'document',
      record_id: id,
      created_at: nowTimestamp(),
    }),
  );

/**
 * Stores the bundle's new documents into the person, after its records: `recordIds` names
 * the record each source became here, for the documents that belong to one. A document
 * already here is attached to the records the bundle names it on, as an upload would be.
 */
async function saveDocuments(
  database: Kysely<DB>,
  intake: DocumentIntake,
  userId: string,
  person: Person,
  documents: readonly ImportedDocument[],
  plan: Pick<FhirImportPlan, 'documents' | 'sources'>,
  recordIds: ReadonlyMap<string, string>,
  history?: ImportNote,
): Promise<{ added: number; alreadyHere: number; skipped: SkippedDocument[] }> {
  let added = 0;
  let alreadyHere = 0;
  const skipped: SkippedDocument[] = [];
  const attachments = createDocumentRecords(database);
  for (const [index, document] of documents.entries()) {
    const match = plan.documents[index]!;
    // As an upload: records of the same person (the account's contacts, the holder's own).
    const records = document.records.flatMap((record) => {
      const recordId = recordIds.get(record.source_id);
      const definition = definitionsByType[record.type];
      return recordId && (definition.memberLinked || !person.family_member_id)
        ? [{ record_type: definition.path, record_id: recordId }]
        : [];
    });
    if (match.kind !== 'new') {
      alreadyHere += 1;
      await attachments.attach(database, userId, match.id, records);
      const unknown = document.source_ids.filter((source) => !plan.sources.has(source));
      await rememberSources(database, sourceRows(userId, person, unknown, match.id));
      continue;
    }
    try {
      const stored = await takeDocument(intake, [Buffer.from(document.data, 'base64')], {
        owner: userId,
        member: person.family_member_id,
        title: document.title,
        document_type: document.document_type,
        document_date: document.document_date,
        file_name: document.file_name,
        records,
      });
      await rememberSources(database, sourceRows(userId, person, document.source_ids, stored.id));
      if (history) await noteAdded(database, history, 'document', [stored.id]);
      added += 1;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      skipped.push({ title: document.title, reason: error.message });
    }
  }
  return { added, alreadyHere, skipped };
}

/** How a file's import is remembered, and the family member it makes first (`person=new`). */
export interface FhirSaveOptions {
  history?: ImportNote;
  /** The person's row, when the import makes them (their id is the person's). */
  newMember?: Record<string, unknown>;
}

/** What writing the bundle's records goes by, and what it notes as it goes. */
interface RecordWriting {
  writes: ImportWrites;
  userId: string;
  person: Person;
  changed: ChangedChoice;
  now: string;
  /** The sources of the records that documents belong to. */
  wanted: ReadonlySet<string>;
  /** The id here of each wanted source's record, noted as it is matched or written. */
  recordIds: Map<string, string>;
  /** The new contacts' links to the person they care for. */
  contactPersons: Record<string, unknown>[];
}

/** A new record's row, and the row that remembers the source it came from. */
function newRecordRows(
  { userId, person, now }: RecordWriting,
  { type, definition, owner }: TypePlan,
  rows: ReturnType<typeof recordRows>,
  record: ImportedRecord<object>,
  id: string,
) {
  const values = record.values as Record<string, unknown>;
  return {
    row: ownedRow(userId, {
      id,
      ...rows.toRow(values),
      ...(definition.memberLinked ? { family_member_id: person.family_member_id } : {}),
      created_at: now,
      updated_at: now,
    }),
    source: ownedRow(userId, {
      person_id: owner.id,
      family_member_id: owner.family_member_id,
      source_id: record.source_id,
      record_type: type,
      record_id: id,
      created_at: now,
    }),
  };
}

/**
 * One type's records written: the new ones added with their sources, the changed ones
 * replaced when the user chose so; answers how many of each, and how many were here.
 */
async function writeTypeRecords(writing: RecordWriting, plan: TypePlan) {
  const { writes, userId, person, wanted, recordIds } = writing;
  const { definition, records, matches } = plan;
  const rows = recordRows(definition);
  let fresh: Record<string, unknown>[] = [];
  let sources: Record<string, unknown>[] = [];
  let added = 0;
  let alreadyHere = 0;
  const replacements: { id: string; values: Record<string, unknown> }[] = [];
  // Rows are written as they are made, a batch at a time: a large file's rows are never
  // all in memory at once (the collector's pauses grew with them).
  const flush = async () => {
    if (fresh.length === 0) return;
    const batch = fresh;
    const noted = sources;
    fresh = [];
    sources = [];
    added += batch.length;
    // Each batch's sources are noted in the batch's own transaction: one commit for both.
    await writes.insert(definition.table, batch, 'id', (db, start, end) =>
      rememberSources(db, noted.slice(start, end)),
    );
  };
  for (const [index, record] of records.entries()) {
    if (fresh.length >= WRITE_BATCH) await flush();
    else if (index % MATCH_SLICE === MATCH_SLICE - 1) await nextTurn();
    const match = matches[index]!;
    if (match.kind !== 'new' && wanted.has(record.source_id)) {
      recordIds.set(record.source_id, match.id);
    }
    if (match.kind === 'changed' && writing.changed === 'replace') {
      replacements.push({ id: match.id, values: record.values as Record<string, unknown> });
      continue;
    }
    if (match.kind !== 'new') {
      alreadyHere += 1;
      continue;
    }
    const id = newId();
    if (wanted.has(record.source_id)) recordIds.set(record.source_id, id);
    if (definition.table === 'contacts') {
      // A bundle is one person's: the contacts it brings (their care team) care for them.
      writing.contactPersons.push(
        ownedRow(userId, {
          contact_id: id,
          person_id: person.id,
          family_member_id: person.family_member_id,
        }),
      );
    }
    const { row, source } = newRecordRows(writing, plan, rows, record, id);
    fresh.push(row);
    sources.push(source);
  }
  await flush();
  const replaced = await writes.replace(definition, replacements, writing.now);
  return { added, alreadyHere, replaced };
}

/** The bundle's records written, type by type, then the new contacts' links. */
async function writeRecords(
  writing: RecordWriting,
  plan: FhirImportPlan,
  newMember: Record<string, unknown> | undefined,
) {
  const imported: ImportedCounts = {};
  if (newMember) await writing.writes.insert('family_members', [newMember]);
  let alreadyHere = 0;
  let replaced = 0;
  for (const typePlan of plan.types) {
    const written = await writeTypeRecords(writing, typePlan);
    alreadyHere += written.alreadyHere;
    if (written.added > 0) imported[typePlan.type] = written.added;
    replaced += written.replaced;
  }
  await writing.writes.insert('contact_persons', writing.contactPersons, 'contact_id');
  return { imported, alreadyHere, replaced };
}

/** The import's summary sentence: what it added and skipped, replaced, and found here. */
function summaryOf(
  imported: ImportedCounts,
  skipped: FhirImportSummary['skipped'],
  skippedDocuments: SkippedDocument[],
  alreadyHere: number,
  replaced: number,
): string {
  const nothingNew = Object.keys(imported).length === 0 && Object.keys(skipped).length === 0;
  let summary =
    (alreadyHere > 0 || replaced > 0) && nothingNew
      ? tr('Imported nothing')
      : importSummary(imported, skipped, skippedDocuments);
  if (replaced > 0) {
    summary += `; ${tr('replaced {count} changed records', { count: replaced })}`;
  }
  if (alreadyHere > 0) {
    summary += ` ${tr('({count} records were already here)', { count: alreadyHere })}`;
  }
  return summary;
}

export async function saveFhirImport(
  database: Kysely<DB>,
  userId: string,
  person: Person,
  bundle: ReadBundle,
  changed: ChangedChoice = 'keep',
  intake?: DocumentIntake,
  options: FhirSaveOptions = {},
): Promise<FhirImportSummary> {
  if (bundle.documents.length > 0 && !intake) {
    throw new Error('A FHIR import with documents needs the document intake');
  }
  const plan = await planFhirImport(
    database,
    userId,
    person,
    bundle,
    intake?.quotaBytes ?? Number.POSITIVE_INFINITY,
  );
  // The records that documents belong to: their ids here, once they are written.
  const wanted = new Set(
    bundle.documents.flatMap((document) => document.records.map((record) => record.source_id)),
  );
  const recordIds = new Map<string, string>();
  const written = await writeImport(
    database,
    userId,
    (writes) =>
      writeRecords(
        {
          writes,
          userId,
          person,
          changed,
          now: nowTimestamp(),
          wanted,
          recordIds,
          contactPersons: [],
        },
        plan,
        options.newMember,
      ),
    options.history,
  );
  const { imported, replaced } = written;
  let { alreadyHere } = written;
  const skipped = { ...bundle.skipped };
  const skippedDocuments = [...bundle.skipped_documents];
  if (intake) {
    const documents = await saveDocuments(
      database,
      intake,
      userId,
      person,
      bundle.documents,
      plan,
      recordIds,
      options.history,
    );
    if (documents.added > 0) imported.document = documents.added;
    alreadyHere += documents.alreadyHere;
    if (documents.skipped.length > 0) {
      skipped.DocumentReference = (skipped.DocumentReference ?? 0) + documents.skipped.length;
      skippedDocuments.push(...documents.skipped);
    }
  }
  return {
    format: 'fhir',
    summary: summaryOf(imported, skipped, skippedDocuments, alreadyHere, replaced),
    imported,
    skipped,
    skipped_documents: skippedDocuments,
    already_imported: alreadyHere,
    replaced,
  };
}
