/**
 * Puts what a FHIR import read (fhir-import.ts) into a person, a slice of the file's records
 * at a time as its reading hands them on (record-feed.ts, decision 0077): each slice matched
 * against the person's records (import-plan.ts), then written, before the next is read. A
 * record already here is left alone (the resource it came from remembered), one here but
 * changed is kept as it is or replaced by the file's, as the user chose, and only a new one
 * is added, with the resource it came from (contacts, the account's own, once per account).
 * The preview is the same matching without the writes. The writes go a batch at a time
 * (import-writes.ts): a failed import leaves nothing behind. A bundle is one person's, so the
 * new contacts it brings care for that person (migration 0020). Its documents (one per file,
 * however many DocumentReferences name it: decision 0049) come after its records, one at a
 * time, each stored as an upload is (document-intake.ts: typed by its bytes, the storage
 * limit held) and attached to the record it belongs to, found by the resource it came from;
 * one refused is skipped with the reason, and the rest go on. A document is remembered by its
 * source as a record is, so a second import adds none again.
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
import { deleteOwned, ownedRow, ownedRows } from '../access/scope';
import { INSERT_BATCH } from '../data-transfer/import-rows';
import { checkDocumentBytes, checkDocumentCount } from '../data-transfer/import-document-limits';
import { WRITE_BATCH, writeImport, type ImportWrites } from '../data-transfer/import-writes';
import {
  MATCH_SLICE,
  RecordMatcher,
  countMatches,
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
import { importSummary, type ImportedCounts, type ImportedRecord } from './fhir-import';
import { feedOf, type ReadBundle, type RecordFeed } from './record-feed';
import { FHIR_RECORD_TYPES, type FhirRecordType } from './fhir-source';

/** Whose a type's records are, what earlier imports brought in for them, and its matcher. */
interface TypeMatching {
  type: FhirRecordType;
  definition: RecordDefinition;
  /** How the type's values become its table's rows. */
  rows: ReturnType<typeof recordRows>;
  /** Whose the records are: the person, or for contacts the account holder. */
  owner: { id: string; family_member_id: string | null };
  /** The records earlier imports brought in for the owner, by source. */
  sources: ReadonlyMap<string, string>;
  matcher: RecordMatcher<ImportedRecord<object>>;
}

/** What earlier imports into the person, and the account holder (contacts), brought in, by source. */
async function earlierSources(db: Kysely<DB>, userId: string, person: Person) {
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
  return sources;
}

/** How a record of the file reads to the matcher. */
const incoming = (record: ImportedRecord<object>) => ({
  id: record.record_id,
  sourceId: record.source_id,
  values: record.values as Record<string, unknown>,
});

/**
 * The matching of a file's records against the person's, type by type: each type's records
 * here read when its first slice comes, and each answering for one record of the file at most
 * across every slice.
 */
class ImportMatching {
  private readonly types = new Map<FhirRecordType, Promise<TypeMatching>>();
  private constructor(
    private readonly db: Kysely<DB>,
    private readonly userId: string,
    private readonly person: Person,
    /** What earlier imports brought in, by owner and source. */
    readonly sources: ReadonlyMap<string, ReadonlyMap<string, string>>,
  ) {}

  static async of(db: Kysely<DB>, userId: string, person: Person): Promise<ImportMatching> {
    return new ImportMatching(db, userId, person, await earlierSources(db, userId, person));
  }

  /** The sources earlier imports into the person brought in. */
  get personSources(): ReadonlyMap<string, string> {
    return this.sources.get(this.person.id) ?? new Map<string, string>();
  }

  /** Whose a type's records are (contacts: the account holder's, whoever the file was for). */
  ownerOf(type: FhirRecordType) {
    const definition: RecordDefinition = definitionsByType[type];
    return definition.memberLinked ? this.person : { id: this.userId, family_member_id: null };
  }

  type(type: FhirRecordType): Promise<TypeMatching> {
    let matching = this.types.get(type);
    if (!matching) {
      const definition: RecordDefinition = definitionsByType[type];
      const owner = this.ownerOf(type);
      const sources = this.sources.get(owner.id) ?? new Map<string, string>();
      matching = RecordMatcher.load(
        this.db,
        this.userId,
        definition,
        owner.family_member_id,
        sources,
        incoming,
      ).then((matcher) => ({
        type,
        definition,
        rows: recordRows(definition),
        owner,
        sources,
        matcher,
      }));
      this.types.set(type, matching);
    }
    return matching;
  }
}

/** Counts in the order of the record types, whichever order the file held them in. */
function inTypeOrder<T>(byType: Partial<Record<string, T>>): Partial<Record<FhirRecordType, T>> {
  const ordered: Partial<Record<FhirRecordType, T>> = {};
  for (const type of FHIR_RECORD_TYPES)
    if (byType[type] !== undefined) ordered[type] = byType[type];
  return ordered;
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
 * Refuses a bundle whose new documents are more than an import takes, before any is stored
 * (an import's records are then taken back): each DocumentReference counted, with its file's
 * bytes (import-document-limits.ts).
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

/**
 * Notes which record here each source is. A source already noted names a record since
 * deleted here, or found otherwise: it now names this one.
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
 * What importing the file's records into the person would do, per record type; writes
 * nothing. Refused as the import would be when its documents are more than an import takes.
 */
export async function previewFhirImport(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  records: ReadBundle | RecordFeed,
  intake: Pick<DocumentIntake, 'quotaBytes'>,
): Promise<ImportPreview> {
  const feed = feedOf(records);
  const matching = await ImportMatching.of(db, userId, person);
  const byType: ImportCounts = {};
  for await (const slice of feed.slices()) {
    const { matcher } = await matching.type(slice.type);
    countMatches(byType, slice.type, await matcher.match(slice.records));
  }
  const { documents, skipped } = await feed.rest();
  const counts: ImportCounts = inTypeOrder(byType);
  const matches = await matchDocuments(db, userId, person, documents, matching.personSources);
  checkNewDocuments(documents, matches, intake.quotaBytes);
  if (matches.length > 0) countMatches(counts, 'document', matches);
  return importPreview('fhir', counts, skipped);
}

/** The bundle's documents, each new or here already, and the sources earlier imports brought in. */
interface DocumentPlan {
  documents: readonly RecordMatch[];
  sources: ReadonlyMap<string, string>;
}

/** A document's sources, noted as naming the document here. */
const sourceRows = (userId: string, person: Person, sources: readonly string[], id: string) =>
  sources.map((sourceId) => sourceRow(userId, person, 'document', sourceId, id, nowTimestamp()));

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
  plan: DocumentPlan,
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

/** What writing the file's records goes by. */
interface RecordWriting {
  writes: ImportWrites;
  userId: string;
  person: Person;
  changed: ChangedChoice;
  now: string;
}

/** A new record's row, and the row that remembers the source it came from. */
function newRecordRows(
  { userId, person, now }: RecordWriting,
  { type, definition, rows, owner }: TypeMatching,
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
    source: sourceRow(userId, owner, type, record.source_id, id, now),
  };
}

/** The row that remembers which record here a source of the file is. */
const sourceRow = (
  userId: string,
  owner: TypeMatching['owner'],
  type: FhirRecordType | 'document',
  sourceId: string,
  recordId: string,
  now: string,
) =>
  ownedRow(userId, {
    person_id: owner.id,
    family_member_id: owner.family_member_id,
    source_id: sourceId,
    record_type: type,
    record_id: recordId,
    created_at: now,
  });

type SourceRows = Record<string, unknown>[];

/**
 * Remembers the source of each record of the file found here that earlier imports did not
 * bring in as that record (found by its id or its content): a later import of the file finds
 * it by its source, and the file's documents are attached to it.
 */
async function rememberFound(writes: ImportWrites, rows: SourceRows) {
  if (rows.length > 0) await writes.step((trx) => rememberSources(trx, rows));
}

/** A type's new rows not written yet: fewer than a batch. */
interface PendingRows {
  matching: TypeMatching;
  rows: Record<string, unknown>[];
  sources: SourceRows;
  /** The new contacts' links to the person they care for. */
  contactPersons: Record<string, unknown>[];
}

/**
 * Writes the file's records a slice at a time as they are matched: the new ones added with
 * their sources (new contacts with their link to the person), a batch of a type at a time
 * across slices, the changed ones replaced when the user chose so, and the sources of those
 * found here remembered. Counts what it added, found here and replaced.
 */
class RecordWriter {
  readonly added: ImportedCounts = {};
  alreadyHere = 0;
  replaced = 0;
  private readonly pending = new Map<FhirRecordType, PendingRows>();

  constructor(private readonly writing: RecordWriting) {}

  /** Writes a type's batch of new rows, each batch's sources in its own transaction. */
  private async flush(type: FhirRecordType) {
    const batch = this.pending.get(type);
    if (!batch || batch.rows.length === 0) return;
    this.pending.delete(type);
    const { writes } = this.writing;
    const { rows, sources, contactPersons, matching } = batch;
    this.added[type] = (this.added[type] ?? 0) + rows.length;
    // One commit for the records and their sources.
    await writes.insert(matching.definition.table, rows, 'id', (db, start, end) =>
      rememberSources(db, sources.slice(start, end)),
    );
    await writes.insert('contact_persons', contactPersons, 'contact_id');
  }

  /** One slice of a type's records, matched. */
  async write(
    matching: TypeMatching,
    records: readonly ImportedRecord<object>[],
    matches: readonly RecordMatch[],
  ) {
    const { writing } = this;
    const { userId, person, now } = writing;
    const { type, definition } = matching;
    const found: SourceRows = [];
    const replacements: { id: string; values: Record<string, unknown> }[] = [];
    for (const [index, record] of records.entries()) {
      if (index % MATCH_SLICE === MATCH_SLICE - 1) await nextTurn();
      const match = matches[index]!;
      if (match.kind !== 'new') {
        if (matching.sources.get(record.source_id) !== match.id) {
          found.push(sourceRow(userId, matching.owner, type, record.source_id, match.id, now));
        }
        if (match.kind === 'changed' && writing.changed === 'replace') {
          replacements.push({ id: match.id, values: record.values as Record<string, unknown> });
        } else this.alreadyHere += 1;
        continue;
      }
      let batch = this.pending.get(type);
      if (!batch) {
        batch = { matching, rows: [], sources: [], contactPersons: [] };
        this.pending.set(type, batch);
      }
      const id = newId();
      if (definition.table === 'contacts') {
        // A bundle is one person's: the contacts it brings (their care team) care for them.
        batch.contactPersons.push(
          ownedRow(userId, {
            contact_id: id,
            person_id: person.id,
            family_member_id: person.family_member_id,
          }),
        );
      }
      const made = newRecordRows(writing, matching, record, id);
      batch.rows.push(made.row);
      batch.sources.push(made.source);
      if (batch.rows.length >= WRITE_BATCH) await this.flush(type);
    }
    await rememberFound(writing.writes, found);
    this.replaced += await writing.writes.replace(definition, replacements, now);
  }

  /** The rows still pending written. */
  async finish() {
    for (const type of [...this.pending.keys()]) await this.flush(type);
  }
}

/**
 * The id here of each record the documents belong to, found by the source it came from
 * (every record of the file has its source remembered once written or found).
 */
async function recordIdsOf(
  db: Kysely<DB>,
  userId: string,
  matching: ImportMatching,
  documents: readonly ImportedDocument[],
): Promise<Map<string, string>> {
  const wanted = new Map<string, FhirRecordType>();
  for (const document of documents) {
    for (const record of document.records) wanted.set(record.source_id, record.type);
  }
  const recordIds = new Map<string, string>();
  const sources = [...wanted.keys()];
  for (let start = 0; start < sources.length; start += INSERT_BATCH) {
    const rows = await ownedRows(db, 'fhir_import_sources', userId)
      .select(['person_id', 'source_id', 'record_id'])
      .where('source_id', 'in', sources.slice(start, start + INSERT_BATCH))
      .execute();
    for (const row of rows) {
      const type = wanted.get(row.source_id);
      if (type && matching.ownerOf(type).id === row.person_id) {
        recordIds.set(row.source_id, row.record_id);
      }
    }
  }
  return recordIds;
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
  records: ReadBundle | RecordFeed,
  changed: ChangedChoice = 'keep',
  intake?: DocumentIntake,
  options: FhirSaveOptions = {},
): Promise<FhirImportSummary> {
  const feed = feedOf(records);
  const matching = await ImportMatching.of(database, userId, person);
  const writing = { userId, person, changed, now: nowTimestamp() };
  const written = await writeImport(
    database,
    userId,
    async (writes) => {
      // The sources it notes are noted at its moment: should it fail, it forgets them by it
      // (a source noted before and now naming another record keeps its first moment).
      writes.undoing(async (db) => {
        await deleteOwned(db, 'fhir_import_sources', userId)
          .where('created_at', '=', writing.now)
          .execute();
      });
      if (options.newMember) await writes.insert('family_members', [options.newMember]);
      const writer = new RecordWriter({ ...writing, writes });
      for await (const slice of feed.slices()) {
        const typeMatching = await matching.type(slice.type);
        await writer.write(
          typeMatching,
          slice.records,
          await typeMatching.matcher.match(slice.records),
        );
      }
      await writer.finish();
      const { added, alreadyHere, replaced } = writer;
      const rest = await feed.rest();
      if (rest.documents.length > 0 && !intake) {
        throw new Error('A FHIR import with documents needs the document intake');
      }
      // Refused, and its records taken back, when its new documents are more than an import takes.
      const documents = await matchDocuments(
        database,
        userId,
        person,
        rest.documents,
        matching.personSources,
      );
      checkNewDocuments(rest.documents, documents, intake?.quotaBytes ?? Number.POSITIVE_INFINITY);
      return {
        imported: inTypeOrder(added) as ImportedCounts,
        alreadyHere,
        replaced,
        rest,
        documents,
      };
    },
    options.history,
  );
  const { imported, replaced, rest } = written;
  let { alreadyHere } = written;
  const skipped = { ...rest.skipped };
  const skippedDocuments = [...rest.skipped_documents];
  if (intake && rest.documents.length > 0) {
    const recordIds = await recordIdsOf(database, userId, matching, rest.documents);
    const documents = await saveDocuments(
      database,
      intake,
      userId,
      person,
      rest.documents,
      { documents: written.documents, sources: matching.personSources },
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
